"""Agent Triggers of type Doc Event and Webhook: find the triggers, check them, queue the agent runs."""

from __future__ import annotations

import hmac
import json
import time
from typing import Any

import frappe
from frappe import _
from frappe.utils import cint

from huf.huf.doctype.agent.agent import DOC_EVENT_AGENTS_CACHE_KEY
from huf.huf.doctype.agent_trigger.agent_trigger import DOC_EVENTS, UNTRIGGERABLE_DOCTYPES

CHANNEL = "trigger"
WEBHOOK_KEY_HEADER = "X-Huf-Webhook-Key"
# Calls per minute per webhook and client address (site config huf_webhook_rate_limit).
WEBHOOK_RATE_LIMIT = 60
NO_VALUE_FIELDTYPES = frozenset(
	("Section Break", "Column Break", "Tab Break", "HTML", "Button", "Image", "Fold", "Heading", "Password")
)


# --- doc events ----------------------------------------------------------------------------------


def get_doc_event_agents(doctype: str | None = None) -> dict | list:
	"""Enabled Doc Event triggers by DocType (cached per site until an Agent or Agent Trigger changes)."""
	triggers = frappe.cache().get_value(DOC_EVENT_AGENTS_CACHE_KEY)
	if triggers is None:
		triggers = _load_doc_event_triggers()
		frappe.cache().set_value(DOC_EVENT_AGENTS_CACHE_KEY, triggers)
	return triggers if doctype is None else triggers.get(doctype, [])


def _load_doc_event_triggers() -> dict:
	rows = frappe.get_all(
		"Agent Trigger",
		filters={"trigger_type": "Doc Event", "disabled": 0},
		fields=["name", "agent", "reference_doctype", "doc_event", "condition"],
		order_by="creation asc",
	)
	enabled_agents = set(frappe.get_all("Agent", filters={"disabled": 0}, pluck="name"))
	triggers: dict[str, list] = {}
	for row in rows:
		if row.agent in enabled_agents and row.reference_doctype and row.doc_event in DOC_EVENTS:
			triggers.setdefault(row.reference_doctype, []).append(dict(row))
	return triggers


def clear_doc_event_agents_cache(*args: Any, **kwargs: Any) -> None:
	"""Forget the cached Doc Event triggers (an Agent or Agent Trigger changed)."""
	frappe.cache().delete_value(DOC_EVENT_AGENTS_CACHE_KEY)


def run_hooked_agents(doc: Any, method: str | None = None) -> None:
	"""doc_events handler for every DocType: queue the runs of the triggers matching `doc` and `method`."""
	if doc.doctype in UNTRIGGERABLE_DOCTYPES or frappe.flags.in_install or frappe.flags.in_migrate:
		return
	try:
		triggers = get_doc_event_agents(doc.doctype)
	except Exception:
		frappe.log_error(title=_("Agent Trigger lookup failed"))
		return
	for trigger in triggers:
		if trigger["doc_event"] != method:
			continue
		try:
			_fire_doc_trigger(trigger, doc, method)
		except Exception:
			# A broken trigger must never break the user's save.
			frappe.log_error(
				title=_("Agent Trigger {0} failed").format(trigger["name"]),
				reference_doctype=doc.doctype,
				reference_name=doc.name,
			)


def _fire_doc_trigger(trigger: dict, doc: Any, event: str) -> None:
	condition = (trigger.get("condition") or "").strip()
	if condition and not frappe.safe_eval(condition, None, {"doc": doc}):
		return
	trigger_doc = frappe.get_cached_doc("Agent Trigger", trigger["name"])
	prompt = build_doc_prompt(trigger_doc, doc, event)
	frappe.enqueue(
		"huf.ai.agent_hooks.run_agent_for_doc",
		queue="short",
		enqueue_after_commit=True,
		trigger=trigger["name"],
		agent=trigger["agent"],
		prompt=prompt,
		doctype=doc.doctype,
		docname=str(doc.name),
		attachments=_attachments(trigger_doc, doc),
		initiating_user=frappe.session.user,
	)


def run_agent_for_doc(
	trigger: str,
	agent: str,
	prompt: str,
	doctype: str,
	docname: str,
	attachments: list | None = None,
	initiating_user: str | None = None,
) -> dict | None:
	"""Background job: queue the agent run of a Doc Event trigger as the user who changed the document."""
	frappe.set_user(initiating_user or "Administrator")
	try:
		run = _queue_run(
			agent,
			prompt,
			trigger,
			external_id=f"{trigger}:{doctype}:{docname}",
			attachments=attachments,
			reference_doctype=doctype,
			reference_name=docname,
		)
	except Exception:
		frappe.db.rollback()
		frappe.log_error(
			title=_("Agent Trigger {0} could not run agent {1}").format(trigger, agent),
			reference_doctype=doctype,
			reference_name=docname,
		)
		frappe.db.commit()
		return None
	return {"agent_run_id": run.name, "conversation_id": run.conversation}


def build_doc_prompt(trigger: Any, doc: Any, event: str) -> str:
	"""The trigger's prompt template (metadata `prompt`, Jinja with `doc`) followed by the document's fields."""
	intro = _("The document {0} {1} had the event {2} (Agent Trigger {3}).").format(
		doc.doctype, doc.name, event, trigger.name
	)
	template = _metadata(trigger).get("prompt")
	parts = [intro]
	if template:
		parts.append(frappe.render_template(template, {"doc": doc, "trigger": trigger, "event": event}))
	parts.append(_("Document fields:") + "\n" + json.dumps(document_fields(doc), indent=1, default=str))
	return "\n\n".join(parts)


def document_fields(doc: Any) -> dict:
	"""The values of the DocType's fields (child tables as lists of rows; Password fields left out)."""
	values: dict[str, Any] = {"name": doc.name}
	for df in frappe.get_meta(doc.doctype).fields:
		if df.fieldtype in NO_VALUE_FIELDTYPES:
			continue
		value = doc.get(df.fieldname)
		if df.fieldtype in ("Table", "Table MultiSelect"):
			value = [document_fields(row) for row in value or []]
			for row in value:
				row.pop("name", None)
		if value not in (None, "", []):
			values[df.fieldname] = value
	return values


def _attachments(trigger: Any, doc: Any) -> list[str]:
	urls = []
	for row in trigger.get("file_attachments") or []:
		sources = (doc.get(row.child_table) or []) if row.source_type == "Child Table" else [doc]
		urls.extend(source.get(row.field_name) for source in sources if source.get(row.field_name))
	return urls


# --- webhooks ------------------------------------------------------------------------------------


@frappe.whitelist(allow_guest=True, methods=["POST"])
def handle_webhook(slug: str, **kwargs: Any) -> dict:
	"""POST a webhook: the key (header X-Huf-Webhook-Key or body `key`) must match; queues the agent run."""
	_check_rate_limit(slug)
	body = _request_body()
	key = _request_header(WEBHOOK_KEY_HEADER) or body.pop("key", None) or ""
	trigger = frappe.db.get_value(
		"Agent Trigger",
		{"webhook_slug": str(slug or ""), "trigger_type": "Webhook", "disabled": 0},
		["name", "agent", "owner", "metadata"],
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
	prompt = _("The webhook {0} (Agent Trigger {1}) was called.").format(slug, trigger.name)
	template = _metadata(trigger).get("prompt")
	if template:
		prompt += "\n\n" + frappe.render_template(template, {"payload": body, "trigger": trigger})
	prompt += "\n\n" + _("Payload:") + "\n" + json.dumps(body, indent=1, default=str)
	user = frappe.session.user
	frappe.set_user(run_as(trigger))
	try:
		run = _queue_run(
			trigger.agent,
			prompt,
			trigger.name,
			external_id=f"{trigger.name}:{frappe.generate_hash(length=12)}",
		)
	finally:
		frappe.set_user(user)
	return {"queued": True, "agent_run_id": run.name}


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


def _check_rate_limit(slug: str) -> None:
	"""Refuse more than `huf_webhook_rate_limit` calls a minute per webhook and client address."""
	limit = cint(frappe.conf.get("huf_webhook_rate_limit")) or WEBHOOK_RATE_LIMIT
	ip = getattr(frappe.local, "request_ip", None) or "-"
	key = f"huf:webhook_rate:{slug}:{ip}:{int(time.time() // 60)}"  # one window per clock minute
	count = cint(frappe.cache().get_value(key)) + 1
	frappe.cache().set_value(key, count, expires_in_sec=120)
	if count > limit:
		frappe.throw(_("Too many webhook calls; try again in a minute."), frappe.TooManyRequestsError)


# --- shared --------------------------------------------------------------------------------------


def run_as(trigger: Any) -> str:
	"""Schedule and webhook runs run as metadata `run_as`, else as the trigger's owner."""
	return _metadata(trigger).get("run_as") or trigger.owner or "Administrator"


def _queue_run(agent: str, prompt: str, trigger: str, external_id: str, attachments=None, **values) -> Any:
	from huf.ai.agent_integration import queue_agent_run
	from huf.ai.runtime import queue

	run = queue_agent_run(
		agent,
		prompt,
		channel_id=CHANNEL,
		external_id=external_id,
		attachments=attachments or None,
		run_values={"agent_trigger": trigger, **values},
	)
	queue.kick_drainer(run.conversation)
	return run


def _metadata(trigger: Any) -> dict:
	value = trigger.get("metadata")
	if isinstance(value, str):
		try:
			value = json.loads(value) if value.strip() else {}
		except ValueError:
			value = {}
	return value if isinstance(value, dict) else {}
