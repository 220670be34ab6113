"""A Webhook trigger's URL and key: the key leaves the server only in the answer of `reveal` (once per key)
and `regenerate` (the new key, once); never in lists, logs or other responses.

The endpoints (`huf.api.triggers`) check access with `writable_webhook_trigger` before calling these.
"""

import frappe
from frappe import _
from frappe.utils import cint, get_url
from frappe.utils.password import get_decrypted_password

from huf.ai.triggers.rules import is_system_manager
from huf.huf.acting_users import run_as_user
from huf.huf.engine_owned import engine_write

WEBHOOK_PATH = "/api/method/huf.api.triggers.handle_webhook"


def webhook_url(slug: str | None) -> str | None:
	"""The absolute URL to POST to (the key goes in the X-Huf-Webhook-Key header, never the URL)."""
	return get_url(f"{WEBHOOK_PATH}?slug={slug}") if slug else None


def existing_trigger(trigger: str) -> str:
	"""`trigger`, if such an Agent Trigger exists (else DoesNotExistError)."""
	if not frappe.db.exists("Agent Trigger", trigger):
		frappe.throw(_("Agent Trigger {0} not found.").format(trigger), frappe.DoesNotExistError)
	return trigger


def writable_webhook_trigger(trigger: str):
	"""The Webhook trigger, if the caller may write it and is the user its runs act as (or a System Manager):
	the key starts runs as that user, so nobody else may see or replace it."""
	doc = frappe.get_doc("Agent Trigger", existing_trigger(trigger))
	doc.check_permission("write")
	if doc.trigger_type != "Webhook":
		frappe.throw(
			_("{0} is not a Webhook trigger; it has no key.").format(doc.name), frappe.ValidationError
		)
	acting = run_as_user(doc)
	if acting != frappe.session.user and not is_system_manager():
		frappe.throw(
			_("The runs of {0} act as {1}: only {1} or a System Manager may see or replace its key.").format(
				doc.name, acting
			),
			frappe.PermissionError,
		)
	return doc


def reveal(doc) -> dict:
	"""The key of the trigger `doc`, once per key: {key, webhook_url}."""
	shown = frappe.db.get_value("Agent Trigger", doc.name, "webhook_key_shown", for_update=True)
	if cint(shown):
		frappe.throw(
			_("The key of {0} was already shown; generate a new key to see one.").format(doc.name),
			frappe.PermissionError,
		)
	key = get_decrypted_password("Agent Trigger", doc.name, "webhook_key", raise_exception=False)
	if not key:
		frappe.throw(_("{0} has no key yet; generate a new key.").format(doc.name), frappe.ValidationError)
	frappe.db.set_value("Agent Trigger", doc.name, "webhook_key_shown", 1, update_modified=False)
	return {"key": key, "webhook_url": webhook_url(doc.webhook_slug)}


def regenerate(doc) -> dict:
	"""A new key for the trigger `doc` (the old one stops working), shown this once: {key, webhook_url}."""
	key = frappe.generate_hash(length=40)
	doc.webhook_key = key
	doc.webhook_key_shown = 1
	engine_write(doc).save()  # read-only fields: only this function writes them
	return {"key": key, "webhook_url": webhook_url(doc.webhook_slug)}
