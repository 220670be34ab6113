"""Agent Triggers of type Doc Event and Webhook: find the triggers, check them, queue the agent runs.

Who a run acts as: Doc Event, Schedule and Webhook runs (and their Run now) act as
`acting_user(trigger)`: the trigger's Run As, else its owner, checked again each time a run starts; a
Doc Event run also needs that user to be allowed to read the document. Conditions and prompt templates
are safe expressions (huf.huf.safe_expression) evaluated on a plain snapshot of the document or
payload: they can read values, never call anything.
"""

import hmac
import json
import time
from typing import Any

import frappe
from frappe import _
from frappe.utils import cint

from huf.huf import safe_expression
from huf.huf.doctype.agent.agent import DOC_EVENT_AGENTS_CACHE_KEY
from huf.huf.doctype.agent_trigger.agent_trigger import (
	DOC_EVENTS,
	UNTRIGGERABLE_DOCTYPES,
	is_system_manager,
)
from huf.huf.safe_expression import HIDDEN_FIELDTYPES, TABLE_FIELDTYPES
from huf.request_limits import check_prompt_length

CHANNEL = "trigger"
WEBHOOK_KEY_HEADER = "X-Huf-Webhook-Key"
# Calls per minute per webhook and client address (site config huf_webhook_rate_limit).
WEBHOOK_RATE_LIMIT = 60


class RunRefused(frappe.PermissionError):
	"""The user a trigger's run would act as may not run it (disabled, or lost access)."""


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
	snapshot = safe_expression.document_snapshot(doc) if condition else None
	if condition and not safe_expression.evaluate(condition, {"doc": snapshot}, _("Condition")):
		return
	trigger_doc = frappe.get_cached_doc("Agent Trigger", trigger["name"])
	user = run_as_user(trigger_doc)
	if not frappe.has_permission(doc.doctype, "read", doc=doc, user=user):
		# Not a broken trigger, one document it may not see: log it (without its fields), keep the trigger.
		frappe.log_error(
			title=_("Agent Trigger {0} did not run").format(trigger_doc.name),
			message=_(
				"Agent Trigger {0} did not run for {1} {2}: its runs act as {3}, who may not read that document."
			).format(trigger_doc.name, doc.doctype, doc.name, user),
			reference_doctype=doc.doctype,
			reference_name=doc.name,
		)
		return
	prompt = build_doc_prompt(trigger_doc, doc, event, snapshot)
	check_prompt_length(prompt)  # refused here (into the Error Log), not after queueing a huge job
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
	initiating_user: str,
	attachments: list | None = None,
) -> dict | None:
	"""Background job: queue the agent run of a Doc Event trigger as its acting user (`initiating_user`,
	who saved the document, is named in the prompt). A refused acting user disables the trigger."""
	values = frappe.db.get_value(
		"Agent Trigger", trigger, ["name", "owner", "run_as", "disabled"], as_dict=True
	)
	if not values or cint(values.disabled):
		return None  # deleted or disabled since the document was saved
	try:
		user = acting_user({**values, "agent": agent})
	except RunRefused as e:
		disable_trigger(trigger, str(e))
		return None
	frappe.set_user(user)
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


def build_doc_prompt(trigger: Any, doc: Any, event: str, snapshot: dict | None = None) -> str:
	"""The trigger's prompt template (metadata `prompt`, `{{ }}` placeholders over `doc`, `trigger`,
	`event`) followed by the document's fields."""
	intro = _("The document {0} {1} had the event {2}, saved by {3} (Agent Trigger {4}).").format(
		doc.doctype, doc.name, event, frappe.session.user, trigger.name
	)
	template = _metadata(trigger).get("prompt")
	parts = [intro]
	if template:
		values = {
			"doc": snapshot or safe_expression.document_snapshot(doc),
			"trigger": trigger_values(trigger),
			"event": event,
		}
		parts.append(safe_expression.render(template, values, _("Prompt template")))
	parts.append(_("Document fields:") + "\n" + json.dumps(document_fields(doc), indent=1, default=str))
	return "\n\n".join(parts)


def document_fields(doc: Any) -> dict:
	"""The values of the DocType's fields (child tables as lists of rows; Password fields left out)."""
	values: dict[str, Any] = {"name": doc.name}
	for df in frappe.get_meta(doc.doctype).fields:
		if df.fieldtype in HIDDEN_FIELDTYPES:
			continue
		value = doc.get(df.fieldname)
		if df.fieldtype in TABLE_FIELDTYPES:
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
	template = _metadata(trigger).get("prompt")
	if template:
		values = {"payload": body, "trigger": trigger_values(trigger)}
		try:
			prompt += "\n\n" + safe_expression.render(template, values, _("Prompt template"))
		except safe_expression.ExpressionError as e:
			frappe.throw(str(e), safe_expression.ExpressionError)
	prompt += "\n\n" + _("Payload:") + "\n" + json.dumps(body, indent=1, default=str)
	caller = frappe.session.user
	frappe.set_user(user)
	try:
		run = _queue_run(
			trigger.agent,
			prompt,
			trigger.name,
			external_id=f"{trigger.name}:{frappe.generate_hash(length=12)}",
		)
	finally:
		frappe.set_user(caller)
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


def run_as_user(trigger: Any) -> str | None:
	"""Who the runs of `trigger` act as: its Run As, else its owner (unchecked; see `acting_user`)."""
	return trigger.get("run_as") or trigger.get("owner")


def acting_user(trigger: Any) -> str:
	"""The user a Doc Event, Schedule or Webhook run of `trigger` acts as: its Run As, else its owner.

	Raises RunRefused when that user is disabled, may not run the agent, (the owner) may no longer edit
	Agent Triggers, or is a System Manager and the agent was last changed by someone else who is not
	(`check_reviewed`). A disabled agent raises the usual ValidationError of `check_can_run`.
	"""
	from huf.ai.runtime import access

	user = run_as_user(trigger)
	name = trigger.get("name")
	if not user or not cint(frappe.db.get_value("User", user, "enabled")):
		raise RunRefused(
			_("Agent Trigger {0} cannot run: its runs act as {1}, who is disabled or does not exist.").format(
				name, user or _("(nobody)")
			)
		)
	if not trigger.get("run_as") and not frappe.has_permission("Agent Trigger", "write", doc=name, user=user):
		raise RunRefused(
			_(
				"Agent Trigger {0} cannot run: its runs act as its owner {1}, who may no longer edit Agent Triggers."
			).format(name, user)
		)
	agent = access.load_agent(trigger.get("agent"))
	try:
		access.check_can_run(agent, user)
	except frappe.PermissionError:
		raise RunRefused(
			_("Agent Trigger {0} cannot run: its runs act as {1}, who may not run agent {2}.").format(
				name, user, agent.name
			)
		) from None
	check_reviewed(name, agent.name, user)
	return user


def check_reviewed(trigger: str, agent: str, user: str) -> None:
	"""Raise RunRefused when `user` is a System Manager and the agent, one of its Agent Tool Functions or
	an agent those tools run was last changed by someone who is neither `user` nor a System Manager."""
	if not is_system_manager(user):
		return
	for doctype, name, editor in _run_definition(agent):
		if editor != user and not (editor and is_system_manager(editor)):
			raise RunRefused(
				_(
					"Agent Trigger {0} cannot run: {1} {2} was last changed by {3}, who is not a System"
					" Manager; a System Manager must review and save it before it runs as {4}."
				).format(trigger, _(doctype), name, editor or _("(unknown)"), user)
			)


def _run_definition(agent: str) -> list[tuple[str, str, str]]:
	"""(doctype, name, modified_by) of `agent`, its Agent Tool Functions and, through Run Agent tools,
	the agents they run (and theirs): three queries per level of sub-agents."""
	found, seen, agents = [], set(), [agent]
	while agents:
		seen.update(agents)
		rows = frappe.get_all("Agent", filters={"name": ("in", agents)}, fields=["name", "modified_by"])
		found += [("Agent", row.name, row.modified_by) for row in rows]
		tools = frappe.get_all(
			"Agent Tool", filters={"parenttype": "Agent", "parent": ("in", agents)}, pluck="tool"
		)
		tools = sorted({tool for tool in tools if tool})
		rows = tools and frappe.get_all(
			"Agent Tool Function", filters={"name": ("in", tools)}, fields=["name", "modified_by", "agent"]
		)
		found += [("Agent Tool Function", row.name, row.modified_by) for row in rows]
		agents = sorted({row.agent for row in rows if row.agent} - seen)
	return found


def disable_trigger(name: str, reason: str) -> None:
	"""Disable the trigger with `reason` shown on its form, log it and commit (before the caller throws)."""
	frappe.db.rollback()
	frappe.db.set_value(
		"Agent Trigger", name, {"disabled": 1, "disabled_reason": reason[:1000]}, update_modified=False
	)
	frappe.log_error(
		title=_("Agent Trigger {0} disabled").format(name),
		message=reason,
		reference_doctype="Agent Trigger",
		reference_name=name,
	)
	clear_doc_event_agents_cache()
	frappe.db.commit()


def trigger_values(trigger: Any) -> dict:
	"""What a prompt template sees of the trigger."""
	return {key: trigger.get(key) for key in ("name", "agent", "trigger_type")}


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
