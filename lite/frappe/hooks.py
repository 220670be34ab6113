"""Hooks of Frappe Lite's own app (the subset of Frappe's frappe/hooks.py that Lite implements)."""

permission_query_conditions = {
	"File": "frappe.core.doctype.file.file.get_permission_query_conditions",
	"Notification Log": "frappe.desk.doctype.notification_log.notification_log.get_permission_query_conditions",
}

has_permission = {
	"File": "frappe.core.doctype.file.file.has_permission",
}
