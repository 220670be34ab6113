"""What differs between the two Frappe lines Huf runs on, 15 and 16, in one place (docs/frappe-versions.md).

Huf otherwise uses only names and behaviour both lines share; Frappe Lite behaves as 16 where they differ.
"""

from __future__ import annotations

import frappe
from frappe import _

FRAPPE_MAJOR = int(frappe.__version__.split(".", 1)[0])

# has_permission hooks. Frappe 16 asks every hook of a DocType and denies when one answers a false value
# (None included). Frappe 15 asks them from the last one and takes the first answer that is not None, so
# a hook answering True there silences every hook asked after it. A hook that only denies answers False
# to deny and NO_OBJECTION otherwise: True on 16, None on 15 (Frappe then asks the next hook, and with no
# answer left it goes by role permissions alone).
NO_OBJECTION: bool | None = True if FRAPPE_MAJOR >= 16 else None


def save_user(user) -> None:
	"""Save a User document whose change Huf's own checks allowed (as ignore_permissions).

	Saving a User brings its Notification Settings' `enabled` in line with the user's. Frappe 16 saves
	them ignoring permissions; Frappe 15 checks the caller's, which only the user and System Managers
	have, so a Huf Manager enabling a user would be refused. The settings are set first, under the same
	authority, so Frappe finds nothing left to change on either line."""
	if frappe.db.exists("Notification Settings", user.name):
		frappe.db.set_value("Notification Settings", user.name, "enabled", int(user.enabled or 0))
	user.flags.ignore_permissions = True
	user.save()


def validate_fetched_links(doc, method: str | None = None) -> None:
	"""before_validate hook for Huf's DocTypes: refuse a Link to a record that does not exist, where
	Frappe 15 does not. Frappe 15 checks a Link field only when the record is found if other fields fetch
	values from it (`fetch_from`), so an Agent could name a tool, or a message a conversation, that does
	not exist; Frappe 16 refuses them (LinkValidationError, "Could not find ...") and so does this."""
	if FRAPPE_MAJOR >= 16 or doc.meta.module != "Huf" or doc.flags.ignore_links:
		return
	for row in (doc, *doc.get_all_children()):
		for field in row.meta.get_link_fields():
			value = row.get(field.fieldname)
			if not value or not row.meta.get_fields_to_fetch(field.fieldname):
				continue
			if not frappe.db.exists(field.options, value):
				where = f"{_('Row')} #{row.idx}: " if row is not doc else ""
				frappe.throw(
					_("Could not find {0}").format(f"{where}{_(field.label)}: {value}"),
					frappe.LinkValidationError,
				)
