"""Model utilities, as Frappe's frappe.model.utils."""
