"""Copy a renamed field's values to its new column, as Frappe's frappe.model.utils.rename_field."""

import frappe
from frappe.model import no_value_fields, table_fields


def rename_field(doctype, old_fieldname, new_fieldname, validate=True):
	"""Copy the values of `old_fieldname` into `new_fieldname` (which the DocType must already have)."""
	meta = frappe.get_meta(doctype, cached=False)
	new_field = meta.get_field(new_fieldname)
	if validate:
		if not new_field:
			print("rename_field: " + new_fieldname + " not found in " + doctype)
			return
		if not meta.issingle and not frappe.db.has_column(doctype, old_fieldname):
			print("rename_field: " + old_fieldname + " not found in table for: " + doctype)
			return
	if new_field.fieldtype in table_fields:
		frappe.db.sql(
			"update `tab{}` set parentfield=%s where parentfield=%s".format(
				new_field.options.split("\n", 1)[0]
			),
			(new_fieldname, old_fieldname),
		)
	elif new_field.fieldtype not in no_value_fields:
		if meta.issingle:
			frappe.db.sql(
				"update `tabSingles` set field=%s where doctype=%s and field=%s",
				(new_fieldname, doctype, old_fieldname),
			)
		else:
			frappe.db.sql(f"update `tab{doctype}` set `{new_fieldname}`=`{old_fieldname}`")
		if new_field.fieldtype == "Password":
			frappe.db.sql(
				"update `__Auth` set fieldname=%s where doctype=%s and fieldname=%s",
				(new_fieldname, doctype, old_fieldname),
			)
