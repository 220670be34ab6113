import re

import frappe
from frappe import _
from frappe.model.document import Document

from huf.huf.data_tables.access import clear_cache
from huf.huf.data_tables.builder import NAMING_SERIES_PATTERN

TABLE_NAME_PATTERN = re.compile(r"^[A-Za-z][A-Za-z0-9 _-]{0,57}$")
FIELDNAME_PATTERN = re.compile(r"^[a-z][a-z0-9_]*$")


class HufDataTable(Document):
	# begin: auto-generated types
	# This code is auto-generated. Do not modify anything in this block.

	from typing import TYPE_CHECKING

	if TYPE_CHECKING:
		from frappe.types import DF

		autoname_method: DF.Literal["Autoincrement", "Hash", "Field", "Naming Series", "Prompt"]
		description: DF.SmallText | None
		doctype_name: DF.Data | None
		field_count: DF.Int
		icon: DF.Data | None
		is_active: DF.Check
		naming_field: DF.Data | None
		naming_series: DF.Data | None
		table_name: DF.Data
		title_field_name: DF.Data | None
	# end: auto-generated types

	def validate(self) -> None:
		self.table_name = " ".join((self.table_name or "").split())
		if not TABLE_NAME_PATTERN.match(self.table_name):
			frappe.throw(
				_(
					"Table Name must start with a letter and contain only letters, digits, spaces, _ and - (at most 58)."
				)
			)
		doctype_name = f"HF {self.table_name}"
		before = self.get_doc_before_save()
		if before and before.doctype_name and before.doctype_name != doctype_name:
			frappe.throw(_("The table name of an existing data table cannot be changed."))
		self.doctype_name = doctype_name
		if self.autoname_method == "Field":
			if not self.naming_field:
				frappe.throw(_("Naming Field is required when the Autoname Method is Field."))
			if not FIELDNAME_PATTERN.match(self.naming_field):
				frappe.throw(_("Naming Field must be a fieldname (lowercase letters, digits and _)."))
		if self.autoname_method == "Naming Series" and not NAMING_SERIES_PATTERN.match(
			self.naming_series or ""
		):
			frappe.throw(_("Naming Series must look like LEAD-.##### (a prefix, a dot, then 3 to 10 #)."))
		if before and (before.autoname_method, before.naming_field, before.naming_series) != (
			self.autoname_method,
			self.naming_field,
			self.naming_series,
		):
			frappe.throw(_("The autoname of an existing data table cannot be changed."))
		if frappe.db.exists("DocType", self.doctype_name):
			self.field_count = frappe.db.count(
				"DocField", {"parent": self.doctype_name, "parenttype": "DocType"}
			)

	def on_update(self) -> None:
		clear_cache()

	def on_trash(self) -> None:
		# Without its registry row a table's records would lose their row-level rules (data_tables/access.py).
		if frappe.db.exists("DocType", self.doctype_name):
			frappe.throw(
				_("Delete a data table with its table (delete_data_table), not its registry entry alone.")
			)
		clear_cache()
