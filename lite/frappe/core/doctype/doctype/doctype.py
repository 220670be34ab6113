"""The DocType controller: validates a DocType's definition and syncs its table, as Frappe's does.

App DocTypes are defined by their JSON files (`frappe.model.sync` keeps a DocType row for each);
custom DocTypes (custom=1) live only in the database: this row, its `fields` (DocField) and its
`permissions` (DocPerm). Saving one creates or alters its table (`frappe.db.updatedb`)."""

import re

import frappe
from frappe import _
from frappe.model import child_table_fields, default_fields, no_value_fields, table_fields
from frappe.model.base_document import RESERVED_KEYWORDS
from frappe.model.document import Document
from frappe.model.meta import Meta
from frappe.permissions import AUTOMATIC_ROLES
from frappe.utils import cint

ILLEGAL_FIELDNAME_PATTERN = re.compile("""['",./%@()<>{}]""")
WHITESPACE_PADDING_PATTERN = re.compile(r"^[ \t\n\r]+|[ \t\n\r]+$", flags=re.ASCII)
START_WITH_LETTERS_PATTERN = re.compile(r"^(?![\W])[^\d_\s][\w -]+$", flags=re.ASCII)
_SPECIAL_CHAR_PATTERN = re.compile(r"[\W]", flags=re.UNICODE)
_MAX_COLUMN_LENGTH = 64  # as Frappe's frappe.db.MAX_COLUMN_LENGTH on MariaDB


class InvalidFieldNameError(frappe.ValidationError):
	pass


class UniqueFieldnameError(frappe.ValidationError):
	pass


class IllegalMandatoryError(frappe.ValidationError):
	pass


class DoctypeLinkError(frappe.ValidationError):
	pass


class WrongOptionsDoctypeLinkError(frappe.ValidationError):
	pass


class HiddenAndMandatoryWithoutDefaultError(frappe.ValidationError):
	pass


class NonUniqueError(frappe.ValidationError):
	pass


class CannotIndexedError(frappe.ValidationError):
	pass


class CannotCreateStandardDoctypeError(frappe.ValidationError):
	pass


class DocType(Document):
	def validate(self):
		"""Check the definition: name, fieldnames, naming rule, field options, permissions."""
		self.check_developer_mode()
		self.validate_name()
		self.set_defaults_for_single_and_table()
		self.scrub_field_names()
		self.set_default_in_list_view()
		validate_series(self)
		self.set("can_change_name_type", validate_autoincrement_autoname(self))
		validate_fields(self)
		if not self.istable:
			validate_permissions(self)
		if not self.is_new():
			self.before_update = frappe.get_doc("DocType", self.name)
			self.validate_field_name_conflicts()

	def check_developer_mode(self):
		"""Only custom DocTypes outside developer mode (tests and patches may do anything)."""
		if frappe.flags.in_patch or frappe.flags.in_test:
			return
		if not frappe.conf.get("developer_mode") and not self.custom:
			frappe.throw(
				_("Not in Developer Mode! Set in site_config.json or make 'Custom' DocType."),
				CannotCreateStandardDoctypeError,
			)
		if self.is_virtual and self.custom:
			frappe.throw(_("Not allowed to create custom Virtual DocType."), CannotCreateStandardDoctypeError)

	def validate_name(self, name=None):
		name = name or self.name
		max_length = _MAX_COLUMN_LENGTH - 3
		if len(name) > max_length:
			frappe.throw(
				_("Doctype name is limited to {0} characters ({1})").format(max_length, name),
				frappe.NameError,
			)
		if WHITESPACE_PADDING_PATTERN.search(name):
			frappe.throw(_("DocType's name should not start or end with whitespace"), frappe.NameError)
		if not START_WITH_LETTERS_PATTERN.match(name):
			frappe.throw(
				_(
					"A DocType's name should start with a letter and can only "
					"consist of letters, numbers, spaces, underscores and hyphens"
				),
				frappe.NameError,
				title="Invalid Name",
			)

	def set_defaults_for_single_and_table(self):
		if self.issingle:
			self.allow_import = 0
			self.is_submittable = 0
			self.istable = 0
		elif self.istable:
			self.allow_import = 0
			self.permissions = []

	def scrub_field_names(self):
		"""Fieldnames from labels when missing; restricted names refused; lowercase."""
		restricted = (
			"name",
			"parent",
			"creation",
			"owner",
			"modified",
			"modified_by",
			"parentfield",
			"parenttype",
			"file_list",
			"flags",
			"docstatus",
		)
		for d in self.get("fields"):
			if d.fieldtype:
				if not getattr(d, "fieldname", None):
					if d.label:
						d.fieldname = d.label.strip().lower().replace(" ", "_").strip("?")
						if d.fieldname in restricted:
							d.fieldname = d.fieldname + "1"
						if d.fieldtype == "Section Break":
							d.fieldname = d.fieldname + "_section"
						elif d.fieldtype == "Column Break":
							d.fieldname = d.fieldname + "_column"
						elif d.fieldtype == "Tab Break":
							d.fieldname = d.fieldname + "_tab"
					elif d.fieldtype in ("Section Break", "Column Break", "Tab Break"):
						d.fieldname = (
							d.fieldtype.lower().replace(" ", "_") + "_" + frappe.generate_hash(length=4)
						)
					else:
						frappe.throw(
							_("Row #{}: Fieldname is required").format(d.idx), title="Missing Fieldname"
						)
				elif d.fieldname in restricted:
					frappe.throw(_("Fieldname {0} is restricted").format(d.fieldname), InvalidFieldNameError)
				d.fieldname = ILLEGAL_FIELDNAME_PATTERN.sub("", d.fieldname).lower()
			if d.unique:  # unique is automatically an index
				d.search_index = 0

	def set_default_in_list_view(self):
		"""The first four mandatory fields are in the list view when none is."""
		if not [d.fieldname for d in self.fields if d.in_list_view]:
			count = 0
			for d in self.fields:
				if d.reqd and not d.hidden and d.fieldtype not in _not_allowed_in_list_view(self):
					d.in_list_view = 1
					count += 1
					if count == 4:
						break

	def validate_field_name_conflicts(self):
		"""Fieldnames must not shadow methods or properties of the DocType's controller."""
		from frappe.model.base_document import get_controller

		try:
			controller = get_controller(self.name)
		except (ImportError, frappe.DoesNotExistError):
			controller = Document
		for docfield in self.get("fields") or []:
			if docfield.fieldtype in no_value_fields:
				continue
			attribute = getattr(controller, docfield.fieldname, None)
			conflict_type = None
			if isinstance(attribute, property):
				conflict_type = "class property"
			elif callable(attribute):
				conflict_type = "controller method"
			if conflict_type:
				frappe.throw(
					_("Fieldname '{0}' conflicting with a {1} of the name {2} in {3}").format(
						docfield.label or docfield.fieldname, conflict_type, docfield.fieldname, self.name
					)
				)

	def on_update(self):
		"""Create or alter the table, make missing roles, forget cached meta."""
		frappe.db.updatedb(self.name, Meta(self))
		make_module_and_roles(self)
		frappe.clear_cache(doctype=self.name)


def validate_series(dt, autoname=None, name=None):
	"""`autoname` must name an existing field (field:, naming_series:) and a series prefix only one DocType."""
	autoname = autoname or dt.autoname
	name = name or dt.name
	if not autoname and dt.get("fields", {"fieldname": "naming_series"}):
		dt.autoname = "naming_series:"
	elif dt.autoname and dt.autoname.startswith("naming_series:"):
		fieldname = dt.autoname.split("naming_series:", 1)[0] or "naming_series"
		if not dt.get("fields", {"fieldname": fieldname}):
			frappe.throw(
				_("Fieldname called {0} must exist to enable autonaming").format(frappe.bold(fieldname)),
				title=_("Field Missing"),
			)
	if autoname and autoname.startswith("field:"):
		field = autoname.split(":")[1]
		if not field or field not in [df.fieldname for df in dt.fields]:
			frappe.throw(_("Invalid fieldname '{0}' in autoname").format(field))
		for df in dt.fields:
			if df.fieldname == field:
				df.unique = 1
				break
	if (
		autoname
		and not autoname.startswith(("field:", "eval:", "naming_series:", "format:"))
		and autoname.lower() not in ("prompt", "hash")
	):
		prefix = autoname.split(".", 1)[0]
		used_in = frappe.db.sql(
			"select name from `tabDocType` where autoname like %s and name != %s",
			(prefix.replace("%", "\\%").replace("_", "\\_") + ".%", name),
		)
		if used_in:
			frappe.throw(_("Series {0} already used in {1}").format(prefix, used_in[0][0]))


def validate_autoincrement_autoname(dt) -> bool:
	"""Whether the name column changes to or from autoincrement (allowed only without records)."""
	if dt.is_new():
		return False
	before = getattr(dt.get_doc_before_save(), "autoname", "") or ""
	is_autoincrement = dt.autoname == "autoincrement"
	if is_autoincrement == (before == "autoincrement"):
		return False
	if frappe.get_meta(dt.name).issingle:
		return False
	if not frappe.get_all(dt.name, limit=1):
		return True
	frappe.throw(_("Can only change to/from Autoincrement naming rule when there is no data in the doctype"))


def validate_fields(meta):
	"""Fieldnames legal, unique and not reserved; options, defaults, unique, search and title fields valid."""
	fields = meta.get("fields")
	fieldname_list = [d.fieldname for d in fields]
	docname = meta.get("name")
	not_allowed_in_list_view = _not_allowed_in_list_view(meta)

	for d in fields:
		if not d.permlevel:
			d.permlevel = 0
		if d.fieldtype not in table_fields:
			d.allow_bulk_edit = 0
		if special := _SPECIAL_CHAR_PATTERN.findall(d.fieldname):
			frappe.throw(
				_("Fieldname {0} cannot have special characters like {1}").format(
					frappe.bold(d.fieldname), ", ".join(f'"{c}"' for c in special)
				),
				frappe.InvalidColumnName,
			)
		if d.fieldname in RESERVED_KEYWORDS:
			frappe.throw(
				_("{0}: fieldname cannot be set to reserved keyword {1}").format(
					frappe.bold(docname), frappe.bold(d.fieldname)
				),
				title=_("Invalid Fieldname"),
			)
		if len(d.fieldname) > _MAX_COLUMN_LENGTH:
			frappe.throw(_("Fieldname is limited to 64 characters ({0})").format(d.fieldname))
		if d.hidden and d.reqd and not d.default and not frappe.flags.in_migrate:
			frappe.throw(
				_("{0}: Field {1} in row {2} cannot be hidden and mandatory without default").format(
					docname, d.label, d.idx
				),
				HiddenAndMandatoryWithoutDefaultError,
			)
		_check_unique_and_text(meta, docname, d)
		_scrub_options_in_select(d)
		duplicates = [str(df.idx) for df in fields if df.fieldname == d.fieldname]
		if len(duplicates) > 1:
			frappe.throw(
				_("{0}: Fieldname {1} appears multiple times in rows {2}").format(
					docname, d.fieldname, ", ".join(duplicates)
				),
				UniqueFieldnameError,
			)
		_check_link_table_options(docname, d)
		if d.fieldtype in no_value_fields and d.fieldtype not in table_fields and d.reqd:
			frappe.throw(
				_("{0}: Field {1} of type {2} cannot be mandatory").format(docname, d.label, d.fieldtype),
				IllegalMandatoryError,
			)
		if d.in_list_view and d.fieldtype in not_allowed_in_list_view:
			property_label = "In Grid View" if meta.get("istable") else "In List View"
			frappe.throw(
				_("'{0}' not allowed for type {1} in row {2}").format(property_label, d.fieldtype, d.idx)
			)
		_check_illegal_default(d)
		if (
			d.fieldtype in ("Currency", "Float", "Percent")
			and d.get("precision") not in (None, "")
			and not (1 <= cint(d.get("precision")) <= 6)
		):
			frappe.throw(_("Precision should be between 1 and 6"))

	if meta.get("search_fields"):
		types = {df.fieldname: df.fieldtype for df in fields}
		for fieldname in [f.strip() for f in meta.get("search_fields").split(",")]:
			if types.get(fieldname) in no_value_fields or fieldname not in fieldname_list:
				frappe.throw(_("Search field {0} is not valid").format(fieldname))
	if meta.get("title_field") and meta.get("title_field") not in fieldname_list:
		frappe.throw(_("Title field must be a valid fieldname"), InvalidFieldNameError)
	if meta.get("sort_field"):
		allowed = fieldname_list + list(default_fields) + list(child_table_fields)
		for fieldname in [f.split(maxsplit=1)[0] for f in meta.get("sort_field").split(",")]:
			if fieldname not in allowed:
				frappe.throw(
					_("Sort field {0} must be a valid fieldname").format(fieldname), InvalidFieldNameError
				)


def _not_allowed_in_list_view(meta) -> list[str]:
	not_allowed = [*no_value_fields, "Attach Image"]
	if meta.get("istable"):
		not_allowed = [t for t in not_allowed if t not in ("Button", "HTML")]
	return not_allowed


def _check_unique_and_text(meta, docname, d):
	if meta.get("issingle"):
		d.unique = 0
		d.search_index = 0
	if d.unique:
		if d.fieldtype not in ("Data", "Link", "Read Only", "Int"):
			frappe.throw(
				_("{0}: Fieldtype {1} for {2} cannot be unique").format(docname, d.fieldtype, d.label),
				NonUniqueError,
			)
		if not d.get("__islocal") and frappe.db.has_column(docname, d.fieldname):
			duplicate = frappe.db.sql(
				f"""select `{d.fieldname}`, count(*) from `tab{docname}`
				where ifnull(`{d.fieldname}`, '') != '' group by `{d.fieldname}` having count(*) > 1 limit 1"""
			)
			if duplicate and duplicate[0][0]:
				frappe.throw(
					_("{0}: Field '{1}' cannot be set as Unique as it has non-unique values").format(
						docname, d.label
					),
					NonUniqueError,
				)
	if d.search_index and d.fieldtype in ("Text", "Long Text", "Small Text", "Code", "Text Editor"):
		frappe.throw(
			_("{0}:Fieldtype {1} for {2} cannot be indexed").format(docname, d.fieldtype, d.label),
			CannotIndexedError,
		)


def _scrub_options_in_select(d):
	if d.fieldtype == "Select" and d.options is not None:
		options = []
		for i, option in enumerate(d.options.split("\n")):
			if i == 0 or option.strip():
				options.append(option.strip())
		d.options = "\n".join(options)


def _check_link_table_options(docname, d):
	if frappe.flags.in_patch or frappe.flags.in_fixtures or d.fieldtype not in ("Link", *table_fields):
		return
	if not d.options:
		frappe.throw(
			_("{0}: Options required for Link or Table type field {1} in row {2}").format(
				docname, d.label, d.idx
			),
			DoctypeLinkError,
		)
	if d.options in ("[Select]", d.parent, docname):
		return
	options = frappe.db.get_value("DocType", d.options, "name")
	if not options:
		frappe.throw(
			_("{0}: Options must be a valid DocType for field {1} in row {2}").format(
				docname, d.label, d.idx
			),
			WrongOptionsDoctypeLinkError,
		)
	elif options != d.options:
		frappe.throw(
			_("{0}: Options {1} must be the same as doctype name {2} for the field {3}").format(
				docname, d.options, options, d.label
			),
			DoctypeLinkError,
		)


def _check_illegal_default(d):
	if d.fieldtype == "Check" and not d.default:
		d.default = "0"
	if d.fieldtype == "Check" and cint(d.default) not in (0, 1):
		frappe.throw(
			_("Default for 'Check' type of field {0} must be either '0' or '1'").format(
				frappe.bold(d.fieldname)
			)
		)
	if d.fieldtype == "Select" and d.default:
		if not d.options:
			frappe.throw(
				_("Options for {0} must be set before setting the default value.").format(
					frappe.bold(d.fieldname)
				)
			)
		elif d.default not in d.options.split("\n"):
			frappe.throw(
				_("Default value for {0} must be in the list of options.").format(frappe.bold(d.fieldname))
			)


def validate_permissions(doctype, for_remove=False, alert=False):
	"""DocPerm rows: a basic right each, no duplicate rule, rights that fit the DocType."""
	permissions = doctype.get("permissions")
	issingle = cint(doctype.issingle)
	issubmittable = cint(doctype.is_submittable)
	isimportable = cint(doctype.allow_import)

	def get_txt(d):
		return _("For {0} at level {1} in {2} in row {3}").format(d.role, d.permlevel, d.parent, d.idx)

	for d in permissions:
		if not d.permlevel:
			d.permlevel = 0
		if not (d.select or d.read or d.write or d.submit or d.cancel or d.create):
			frappe.throw(_("{0}: No basic permissions set").format(get_txt(d)))
		if not for_remove:
			for p in permissions:
				if (
					p is not d
					and p.role == d.role
					and p.permlevel == d.permlevel
					and p.if_owner == d.if_owner
				):
					frappe.throw(
						_("{0}: Only one rule allowed with the same Role, Level and {1}").format(
							get_txt(d), _("If Owner")
						)
					)
			if d.cancel and not d.submit:
				frappe.throw(_("{0}: Cannot set Cancel without Submit").format(get_txt(d)))
			if (d.submit or d.cancel or d.amend) and not d.write:
				frappe.throw(_("{0}: Cannot set Submit, Cancel, Amend without Write").format(get_txt(d)))
			if d.get("import") and not d.create:
				frappe.throw(_("{0}: Cannot set Import without Create").format(get_txt(d)))
			if d.submit and not issubmittable:
				frappe.throw(_("{0}: Cannot set Assign Submit if not Submittable").format(get_txt(d)))
			elif d.amend and not issubmittable:
				frappe.throw(_("{0}: Cannot set Assign Amend if not Submittable").format(get_txt(d)))
			if d.get("import") and not isimportable:
				frappe.throw(_("{0}: Cannot set import as {1} is not importable").format(get_txt(d), doctype))
		if cint(d.permlevel) > 0 and d.role not in ("All", "Desk User"):
			if not any(p is not d and p.role == d.role and not p.permlevel for p in permissions):
				frappe.throw(
					_("{0}: Permission at level 0 must be set before higher levels are set").format(
						get_txt(d)
					)
				)
			for invalid in ("create", "submit", "cancel", "amend"):
				if d.get(invalid):
					d.set(invalid, 0)
		if issingle and d.report:
			frappe.msgprint(_("Report cannot be set for Single types"))
			d.report = 0
			d.set("import", 0)
			d.set("export", 0)
		if frappe.session.user != "Administrator" and doctype.custom and d.role in AUTOMATIC_ROLES:
			frappe.throw(
				_("Row # {0}: Non administrator user can not set the role {1} to the custom doctype").format(
					d.idx, frappe.bold(_(d.role))
				),
				title=_("Permissions Error"),
			)


def make_module_and_roles(doc, perm_fieldname="permissions"):
	"""Make the `Module Def` and `Role` records the DocType names, when missing."""
	if doc.module and not frappe.db.exists("Module Def", doc.module):
		module = frappe.get_doc({"doctype": "Module Def", "module_name": doc.module, "app_name": "frappe"})
		module.flags.ignore_mandatory = module.flags.ignore_permissions = True
		module.insert()
	for role in {p.role for p in doc.get(perm_fieldname) or []} | set(AUTOMATIC_ROLES):
		if role and not frappe.db.exists("Role", role):
			new_role = frappe.get_doc({"doctype": "Role", "role_name": role, "desk_access": 1})
			new_role.flags.ignore_mandatory = new_role.flags.ignore_permissions = True
			new_role.insert()
