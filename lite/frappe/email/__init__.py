"""Email: the queue `frappe.sendmail` writes to (Email Queue). Frappe Lite keeps the queue; it has no
outgoing mail server, so nothing leaves the machine (on a bench, Frappe's scheduler sends it)."""
