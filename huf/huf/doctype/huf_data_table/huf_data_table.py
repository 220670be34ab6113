import re

import frappe
from frappe import _
from frappe.model.document import Document

TABLE_NAME_PATTERN = re.compile(r"^[A-Za-z][A-Za-z0-9 _-]{0,57}$")
FIELDNAME_PATTERN = re.compile(r"^[a-z][a-z0-9_]*$")


class HufDataTable(Document):
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
