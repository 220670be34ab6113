"""Webhook triggers: a POST with the trigger's key queues a run of its agent, acting as the trigger's user."""

import hmac
import json

import frappe
from frappe import _

from huf.ai.runtime import front_door
from huf.ai.triggers.common import RunRefused, acting_user, disable_trigger, trigger_request, trigger_values
from huf.ai.triggers.rules import trigger_metadata
from huf.huf import safe_expression
from huf.request_limits import WEBHOOK_RATE_LIMIT as WEBHOOK_RATE_LIMIT  # calls a minute (tests read it)
from huf.request_limits import check_webhook_rate

WEBHOOK_KEY_HEADER = "X-Huf-Webhook-Key"


def receive_webhook(slug: str) -> dict:
	"""POST a webhook: the key (header X-Huf-Webhook-Key or body `key`) must match; queues the agent run."""
	check_webhook_rate(str(slug or ""))
	body = _request_body()
	key = _request_header(WEBHOOK_KEY_HEADER) or body.pop("key", None) or ""
	trigger = frappe.db.get_value(
		"Agent Trigger",
		{"webhook_slug": str(slug or ""), "trigger_type": "Webhook", "disabled": 0},
		["name", "agent", "trigger_type", "owner", "run_as", "metadata"],
		as_dict=True,
	)
	stored = ""
	if trigger:
		from frappe.utils.password import get_decrypted_password

		stored = (
			get_decrypted_password("Agent Trigger", trigger.name, "webhook_key", raise_exception=False) or ""
		)
	# Compare even for an unknown slug, so timing does not tell which slugs exist.
	valid = hmac.compare_digest(str(key).encode(), (stored or "\0" * 40).encode())
	if not (trigger and stored and valid):
		frappe.throw(_("Invalid webhook or key."), frappe.PermissionError)

	body.pop("slug", None)
	body.pop("cmd", None)
	try:
		user = acting_user(trigger)
	except RunRefused as e:
		disable_trigger(trigger.name, str(e))
		frappe.throw(
			_("The trigger of this webhook cannot run and has been disabled; its Disabled Reason says why."),
			frappe.PermissionError,
		)
	prompt = _("The webhook {0} (Agent Trigger {1}) was called.").format(slug, trigger.name)
	template = trigger_metadata(trigger).get("prompt")
	if template:
		values = {"payload": body, "trigger": trigger_values(trigger)}
		try:
			prompt += "\n\n" + safe_expression.render(template, values, _("Prompt template"))
		except safe_expression.ExpressionError as e:
			frappe.throw(str(e), safe_expression.ExpressionError)
	prompt += "\n\n" + _("Payload:") + "\n" + json.dumps(body, indent=1, default=str)
	request = trigger_request(
		trigger.agent,
		prompt,
		trigger.name,
		external_id=f"{trigger.name}:{frappe.generate_hash(length=12)}",
		user=user,
	)
	return {"queued": True, "agent_run_id": front_door.enqueue(request).run}


def _request_body() -> dict:
	"""The JSON object or form fields of the request body (never the query string)."""
	request = getattr(frappe.local, "request", None)
	if request is None:
		return {}
	if request.is_json:
		data = request.get_json(silent=True)
		return dict(data) if isinstance(data, dict) else {"payload": data}
	return request.form.to_dict()


def _request_header(name: str) -> str | None:
	"""A header of the current request (None outside a request, e.g. from the console or a job)."""
	request = getattr(frappe.local, "request", None)
	return request.headers.get(name) if request is not None else None
