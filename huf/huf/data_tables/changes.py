"""Schema changes of a data table: which fields are kept, renamed, removed or change type; refusal of a
change that would lose data (with the field, how many records and an example); conversion of stored
values so the column change keeps them."""

import frappe
from frappe import _

from huf.huf.data_tables.conversions import TEXT_TYPES, convert, db_value, is_empty, text_of

EXAMPLE_LENGTH = 60


class SchemaChange:
	"""The plan of one update: `renames` {old: new}, `removed` fieldnames, `changed` [(old spec, new spec)]."""

	def __init__(
		self, doctype: str, old_fields: list[dict], new_fields: list[dict], naming_field: str | None
	):
		self.doctype = doctype
		self.old = {f["fieldname"]: f for f in old_fields}
		self.renames: dict[str, str] = {}
		self.changed: list[tuple[dict, dict]] = []
		self.new_unique: list[dict] = []
		mapped: set[str] = set()
		for spec in new_fields:
			source = spec.get("original_fieldname") or spec["fieldname"]
			if spec.get("original_fieldname") and source not in self.old:
				frappe.throw(_("There is no field {0} to change.").format(frappe.bold(source)))
			if source not in self.old:
				continue  # a new field
			if source != spec["fieldname"] and spec["fieldname"] in self.old:
				frappe.throw(
					_("{0} is the fieldname of another field; rename in two steps.").format(
						frappe.bold(spec["fieldname"])
					)
				)
			if source in mapped:
				frappe.throw(_("The field {0} appears twice.").format(frappe.bold(source)))
			mapped.add(source)
			old = self.old[source]
			if source != spec["fieldname"]:
				self.renames[source] = spec["fieldname"]
			if (old["fieldtype"], old.get("options")) != (spec["fieldtype"], spec.get("options")):
				self.changed.append((old, spec))
			if spec["unique"] and not old["unique"]:
				self.new_unique.append(spec)
		self.removed = [name for name in self.old if name not in mapped]
		if naming_field and (naming_field in self.removed or naming_field in self.renames):
			frappe.throw(
				_("The field {0} names the records; it cannot be removed or renamed.").format(
					frappe.bold(naming_field)
				)
			)

	def _distinct(self, fieldname: str) -> list[tuple]:
		return frappe.db.sql(
			f"select `{fieldname}`, count(*) from `tab{self.doctype}` group by `{fieldname}`"
		)

	def check(self) -> None:
		"""Refuse the whole change (nothing is changed) if a type, option or unique change would lose data."""
		problems = [p for p in (self._check_type(old, new) for old, new in self.changed) if p]
		problems += [p for p in (self._check_unique(spec) for spec in self.new_unique) if p]
		if problems:
			frappe.throw(problems, frappe.ValidationError, title=_("Schema change refused"), as_list=True)

	def _check_type(self, old: dict, new: dict) -> str | None:
		bad_rows, example, reason = 0, None, ""
		converted = []
		for value, count in self._distinct(old["fieldname"]):
			try:
				converted.append((convert(value, new["fieldtype"], new.get("options")), value, count))
			except ValueError as error:
				bad_rows += count
				if example is None:
					example, reason = value, str(error)
		if not bad_rows and new["fieldtype"] == "Link":
			values = [c for c, _v, _n in converted if c is not None]
			existing = (
				set(frappe.get_all(new["options"], filters={"name": ["in", values]}, pluck="name"))
				if values
				else set()
			)
			for target, value, count in converted:
				if target is not None and target not in existing:
					bad_rows += count
					if example is None:
						example, reason = value, _("is not a record of {0}").format(new["options"])
		if not bad_rows:
			return None
		return _(
			"Cannot change {0} from {1} to {2}: {3} record(s) have a value that {4}, for example {5}. Change or clear those values first; nothing was changed."
		).format(
			frappe.bold(new["label"]),
			_describe(old),
			_describe(new),
			bad_rows,
			reason,
			frappe.bold(text_of(example)[:EXAMPLE_LENGTH]),
		)

	def _check_unique(self, spec: dict) -> str | None:
		source = next((o for o, n in self.renames.items() if n == spec["fieldname"]), spec["fieldname"])
		if source not in self.old:
			return None
		rows = frappe.db.sql(
			f"select `{source}`, count(*) from `tab{self.doctype}` where `{source}` is not null "
			f"group by `{source}` having count(*) > 1"
		)
		if not rows:
			return None
		return _(
			"Cannot make {0} unique: {1} value(s) appear in more than one record, for example {2}. Make them unique first; nothing was changed."
		).format(frappe.bold(spec["label"]), len(rows), frappe.bold(text_of(rows[0][0])[:EXAMPLE_LENGTH]))

	def convert_before(self) -> None:
		"""Rewrite text values in the form the new column type reads (before the DocType is saved)."""
		for old, new in self.changed:
			if old["fieldtype"] not in TEXT_TYPES or new["fieldtype"] in TEXT_TYPES:
				continue
			for value, _count in self._distinct(old["fieldname"]):
				target = db_value(convert(value, new["fieldtype"], new.get("options")))
				target = None if target is None else str(target)
				if target != value:
					self._replace(old["fieldname"], value, target)

	def convert_after(self) -> None:
		"""Store converted values in the new column's own form (after the DocType is saved and renames copied)."""
		for old, new in self.changed:
			fieldname = new["fieldname"]
			for value, _count in self._distinct(fieldname):
				if new["fieldtype"] in TEXT_TYPES:
					if old["fieldtype"] in TEXT_TYPES or value is None:
						continue
					target = text_of(convert(value, old["fieldtype"]))
				elif isinstance(value, str):
					target = db_value(convert(value, new["fieldtype"], new.get("options")))
				else:
					continue
				if target != value:
					self._replace(fieldname, value, target)

	def _replace(self, fieldname: str, value, target) -> None:
		table = f"`tab{self.doctype}`"
		if is_empty(value):
			frappe.db.sql(
				f"update {table} set `{fieldname}` = %s where `{fieldname}` is null or `{fieldname}` = ''",
				(target,),
			)
		else:
			frappe.db.sql(f"update {table} set `{fieldname}` = %s where `{fieldname}` = %s", (target, value))


def _describe(spec: dict) -> str:
	if spec["fieldtype"] == "Link":
		return f"Link ({spec.get('options')})"
	if spec["fieldtype"] == "Select":
		return "Select (" + ", ".join((spec.get("options") or "").split("\n")) + ")"
	return spec["fieldtype"]
