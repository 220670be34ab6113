"""REST API of Agent Triggers for the dashboard: list an agent's triggers, run one now, see a webhook key once.

Webhook keys leave the server only in the answers of `reveal_webhook_key` (once per key) and
`regenerate_webhook_key` (the new key, once); never in lists, logs or other responses.
"""

import frappe
from frappe import _
from frappe.utils import cint, get_url
from frappe.utils.password import get_decrypted_password

from huf.ai.triggers.rules import is_system_manager, trigger_metadata
from huf.ai.triggers.run_now import run_now
from huf.huf.acting_users import run_as_user
from huf.huf.engine_owned import engine_write

LIST_FIELDS = [
	"name",
	"trigger_name",
	"trigger_type",
	"disabled",
	"disabled_reason",
	"run_as",
	"reference_doctype",
	"doc_event",
	"scheduled_interval",
	"interval_count",
	"cron_expression",
	"app_name",
	"event_name",
	"webhook_slug",
	"last_execution",
	"next_execution",
	"metadata",
]
WEBHOOK_PATH = "/api/method/huf.ai.agent_hooks.handle_webhook"


@frappe.whitelist()
def list_agent_triggers(agent: str) -> list[dict]:
	"""The triggers of `agent` the caller may read, with their state (failures, backoff, last run)."""
	if not frappe.db.exists("Agent", agent) or not frappe.has_permission("Agent", "read", doc=agent):
		frappe.throw(_("Agent {0} not found or access denied.").format(agent), frappe.PermissionError)
	frappe.has_permission("Agent Trigger", "read", throw=True)
	rows = frappe.get_list(
		"Agent Trigger", filters={"agent": agent}, fields=LIST_FIELDS, order_by="creation asc"
	)
	return [_describe(row) for row in rows]


def _describe(row: dict) -> dict:
	state = trigger_metadata(row)
	row.pop("metadata", None)
	last = frappe.get_all(
		"Agent Run",
		filters={"agent_trigger": row.name},
		fields=["name", "status"],
		order_by="creation desc",
		limit=1,
	)
	return {
		**row,
		"disabled": cint(row.disabled),
		"webhook_url": webhook_url(row.webhook_slug) if row.trigger_type == "Webhook" else None,
		"failures": cint(state.get("failures")),
		"backoff_until": state.get("backoff_until"),
		"last_error": state.get("last_error"),
		"last_run": last[0].name if last else None,
		"last_run_status": last[0].status if last else None,
	}


def webhook_url(slug: str | None) -> str | None:
	"""The absolute URL to POST to (the key goes in the X-Huf-Webhook-Key header, never the URL)."""
	return get_url(f"{WEBHOOK_PATH}?slug={slug}") if slug else None


@frappe.whitelist(methods=["POST"])
def run_trigger_now(trigger: str) -> dict:
	"""Run the trigger's agent once now (any kind), checked like the Desk button: {agent_run, status, conversation, user}."""
	return run_now(_existing(trigger))


@frappe.whitelist(methods=["POST"])
def reveal_webhook_key(trigger: str) -> dict:
	"""The webhook key of `trigger`, once per key (write permission needed): {key, webhook_url}."""
	doc = _webhook_trigger(trigger)
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


@frappe.whitelist(methods=["POST"])
def regenerate_webhook_key(trigger: str) -> dict:
	"""A new webhook key for `trigger` (the old one stops working), shown this once: {key, webhook_url}."""
	doc = _webhook_trigger(trigger)
	key = frappe.generate_hash(length=40)
	doc.webhook_key = key
	doc.webhook_key_shown = 1
	engine_write(doc).save()  # read-only fields: only this function writes them
	return {"key": key, "webhook_url": webhook_url(doc.webhook_slug)}


def _existing(trigger: str) -> str:
	if not frappe.db.exists("Agent Trigger", trigger):
		frappe.throw(_("Agent Trigger {0} not found.").format(trigger), frappe.DoesNotExistError)
	return trigger


def _webhook_trigger(trigger: str):
	"""The Webhook trigger, if the caller may write it and is the user its runs act as (or a System Manager):
	the key starts runs as that user, so nobody else may see or replace it."""
	doc = frappe.get_doc("Agent Trigger", _existing(trigger))
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
