import frappe

no_cache = 1


def get_context(context):
	context.title = "Lite Page"
	context.greeting = f"Hello {frappe.session.user}"
	context.app_path = frappe.form_dict.app_path
