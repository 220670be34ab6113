"""Doc Event triggers: find the triggers of a saved document, check their condition, queue the runs.

Conditions and prompt templates are safe expressions (huf.huf.safe_expression) evaluated on a plain
snapshot of the document: they can read values, never call anything. A Doc Event run also needs its
acting user to be allowed to read the document. The agent's Run Triggers in Background (`async`)
queues the run in a job; unchecked, the run happens once the save has committed and the save waits
for it. Either way a document + event + trigger runs once within DUPLICATE_WINDOW seconds
(`claim_event`), and writes made by a run of the same agent start nothing.
"""

import json
from typing import Any

import frappe
from frappe import _
from frappe.utils import cint

from huf.ai.runtime import front_door
from huf.ai.triggers.common import (
	RunRefused,
	acting_user,
	disable_trigger,
	history_external_id,
	log_trigger_error,
	trigger_request,
	trigger_values,
)
from huf.ai.triggers.rules import (
	DOC_EVENT_AGENTS_CACHE_KEY,
	UNTRIGGERABLE_DOCTYPES,
	clear_doc_event_agents_cache,
	trigger_metadata,
)
from huf.huf import safe_expression
from huf.huf.acting_users import run_as_user
from huf.huf.doc_events import DOC_EVENTS
from huf.huf.safe_expression import HIDDEN_FIELDTYPES, TABLE_FIELDTYPES
from huf.request_limits import check_prompt_length

DUPLICATE_WINDOW = 30  # seconds: a second save of the same document with the same event runs nothing

__all__ = [
	"attachment_files",
	"claim_event",
	"clear_doc_event_agents_cache",
	"get_doc_event_agents",
	"run_agent_for_doc",
	"run_hooked_agents",
]


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


def run_hooked_agents(doc: Any, method: str | None = None) -> None:
	"""doc_events handler for every DocType: queue the runs of the triggers matching `doc` and `method`."""
	if doc.doctype in UNTRIGGERABLE_DOCTYPES or frappe.flags.in_install or frappe.flags.in_migrate:
		return
	try:
		triggers = get_doc_event_agents(doc.doctype)
	except Exception:
		log_trigger_error(_("Agent Trigger lookup failed"), None, doc.doctype, doc.name)
		return
	for trigger in triggers:
		if trigger["doc_event"] != method:
			continue
		try:
			_fire_doc_trigger(trigger, doc, method)
		except Exception:
			# A broken trigger must never break the user's save.
			log_trigger_error(
				_("Agent Trigger {0} failed").format(trigger["name"]), trigger["name"], doc.doctype, doc.name
			)


def _fire_doc_trigger(trigger: dict, doc: Any, event: str) -> None:
	if _inside_own_run(trigger["agent"]):
		return  # the agent's own writes never start it again (no loops)
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
	job = {
		"trigger": trigger["name"],
		"agent": trigger["agent"],
		"prompt": prompt,
		"doctype": doc.doctype,
		"docname": str(doc.name),
		"event": event,
		"attachments": attachment_files(trigger_doc, doc),
		"initiating_user": frappe.session.user,
	}
	if cint(frappe.db.get_value("Agent", trigger["agent"], "async")) or frappe.flags.get("huf_agent_run"):
		# Run Triggers in Background (and always inside a run): a job after the commit, the save returns.
		frappe.enqueue(
			"huf.ai.triggers.doc_events.run_agent_for_doc", queue="short", enqueue_after_commit=True, **job
		)
	else:
		# The save waits for the answer: the run starts once the document is committed (a rollback: never).
		frappe.db.after_commit.add(lambda: _run_after_save(job))


def _run_after_save(job: dict) -> None:
	"""The inline run of a save (in its commit): whatever goes wrong is logged, never raised to the save."""
	# Let the save's other after-commit work (enqueued jobs, realtime events) run first: a rollback
	# below would drop whatever is still waiting.
	frappe.db.commit()
	try:
		run_agent_for_doc(**job, inline=True)
	except Exception:
		frappe.db.rollback()
		log_trigger_error(
			_("Agent Trigger {0} failed").format(job["trigger"]),
			job["trigger"],
			job["doctype"],
			job["docname"],
		)
		frappe.db.commit()


def _inside_own_run(agent: str) -> bool:
	run = frappe.flags.get("huf_agent_run")
	return bool(run) and frappe.db.get_value("Agent Run", run, "agent") == agent


def claim_event(trigger: str, doctype: str, docname: str, event: str | None) -> bool:
	"""True for the first run of `trigger` for this document and event within DUPLICATE_WINDOW seconds
	(an atomic set-if-absent in the site cache, shared by every process on a bench)."""
	key = frappe.cache().make_key(f"huf:trigger_event:{trigger}:{doctype}:{docname}:{event or ''}")
	return bool(frappe.cache().set(key, b"1", nx=True, ex=DUPLICATE_WINDOW))


def run_agent_for_doc(
	trigger: str,
	agent: str,
	prompt: str,
	doctype: str,
	docname: str,
	initiating_user: str,
	attachments: list | None = None,
	event: str | None = None,
	inline: bool = False,
) -> dict | None:
	"""Run the agent of a Doc Event trigger as its acting user, once per document and event within 30 s:
	queued (background job), or `inline` (after the save's commit; the save waits for the answer). The
	user who saved the document (`initiating_user`) is named in the prompt and picks the conversation
	when the agent keeps one history per user. A refused acting user disables the trigger."""
	values = frappe.db.get_value(
		"Agent Trigger", trigger, ["name", "owner", "run_as", "disabled"], as_dict=True
	)
	if not values or cint(values.disabled):
		return None  # deleted or disabled since the document was saved
	if not claim_event(trigger, doctype, docname, event):
		return None  # the same document had the same event moments ago: that run answers it
	try:
		user = acting_user({**values, "agent": agent})
	except RunRefused as e:
		disable_trigger(trigger, str(e))
		return None
	if frappe.db.exists(doctype, docname):  # the files the fields hold now (on_trash: those it held)
		attachments = attachment_files(
			frappe.get_cached_doc("Agent Trigger", trigger), frappe.get_doc(doctype, docname)
		)
	try:
		request = trigger_request(
			agent,
			prompt,
			trigger,
			external_id=history_external_id(agent, initiating_user),
			user=user,
			attachments=attachments,
			reference_doctype=doctype,
			reference_name=docname,
		)
		run = front_door.run_now(request) if inline else front_door.enqueue(request)
		if inline and run.error:
			_show_failure(trigger, agent, doctype, docname, run.error.get("content"))
	except Exception:
		frappe.db.rollback()
		log_trigger_error(
			_("Agent Trigger {0} could not run agent {1}").format(trigger, agent), trigger, doctype, docname
		)
		frappe.db.commit()
		return None
	return {"agent_run_id": run.run, "conversation_id": run.conversation}


def _show_failure(trigger: str, agent: str, doctype: str, docname: str, error: str | None) -> None:
	"""An inline run failed: the save stands; the error goes to the Error Log and to the user who saved."""
	message = _("Agent {0} (Agent Trigger {1}) could not answer for {2} {3}: {4}").format(
		agent, trigger, doctype, docname, error or _("unknown error")
	)
	frappe.log_error(
		title=_("Agent Trigger {0} failed").format(trigger),
		message=message,
		reference_doctype=doctype,
		reference_name=docname,
	)
	frappe.db.commit()
	frappe.msgprint(message, title=_("Agent Trigger"), indicator="red", realtime=True)


def build_doc_prompt(trigger: Any, doc: Any, event: str, snapshot: dict | None = None) -> str:
	"""The trigger's prompt template (metadata `prompt`, `{{ }}` placeholders over `doc`, `trigger`,
	`event`) followed by the document's fields."""
	intro = _("The document {0} {1} had the event {2}, saved by {3} (Agent Trigger {4}).").format(
		doc.doctype, doc.name, event, frappe.session.user, trigger.name
	)
	template = trigger_metadata(trigger).get("prompt")
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


def attachment_files(trigger: Any, doc: Any) -> list[str]:
	"""The Files (names; URLs without a File record) in the trigger's File Attachments fields of `doc`."""
	found = []
	for row in trigger.get("file_attachments") or []:
		sources = (doc.get(row.child_table) or []) if row.source_type == "Child Table" else [doc]
		found.extend(
			_file_of(doc, source.get(row.field_name)) for source in sources if source.get(row.field_name)
		)
	return found


def _file_of(doc: Any, url: str) -> str:
	"""The File holding `url`, preferably the one attached to `doc` (the newest), else `url` itself."""
	for filters in (
		{"file_url": url, "attached_to_doctype": doc.doctype, "attached_to_name": str(doc.name)},
		{"file_url": url},
	):
		names = frappe.get_all("File", filters=filters, pluck="name", order_by="creation desc", limit=1)
		if names:
			return names[0]
	return url
