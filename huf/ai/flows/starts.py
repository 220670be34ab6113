"""Flow runs started without a person: webhooks, schedules and document events, and who they act as.

A flow starts this way when it is Active and its entry node is a trigger node:

- `trigger.webhook`: `receive_flow_webhook(flow_id)` (the API's `flow_webhook`) with the flow's key
  in the `X-Huf-Flow-Key` header; the JSON body is the payload.
- `trigger.schedule` (`cron` with an optional `timezone`, or `interval_minutes`): `run_scheduled_flows`
  (every minute) starts one run per due time, without drift; the plan is kept in Flow Definition
  `trigger_state`. With `at` (a date and time; `in_minutes` becomes `at` when the flow is saved) it is
  a one-shot: one run at or after that time, then the schedule is done (`fire_once`). The API sets and
  removes schedules through `huf.ai.flows.schedules`.
- `trigger.doc-event` (`doctype`, `event`, optional `condition` over `doc`): `run_hooked_flows`
  (doc_events "*") starts a run after the document's transaction commits; the payload is the
  document's snapshot.

Such a run acts as `acting_user(flow)`: the flow's Run As (only a System Manager may set it), else
its owner; checked at every start (enabled, may still read the flow and create Flow Runs).
"""

from __future__ import annotations

import functools
import hmac
import json
from datetime import datetime
from typing import Any
from urllib.parse import quote

import frappe
from frappe import _
from frappe.utils import add_to_date, cint, flt, get_datetime, get_system_timezone, now_datetime

from huf.ai.flows import context as flow_context
from huf.ai.flows.acting import FlowStartRefused, acting_user
from huf.ai.flows.engine import start_flow_run
from huf.ai.flows.graph import FlowGraph, config_value, node_config
from huf.ai.runtime import budgets
from huf.huf import notifications, safe_expression
from huf.huf.acting_users import run_as_user
from huf.huf.doc_events import DOC_EVENTS
from huf.huf.session_user import acting_as
from huf.request_limits import PayloadTooLargeError, check_webhook_rate

WEBHOOK_KEY_HEADER = "X-Huf-Flow-Key"
DEFAULT_WEBHOOK_MAX_BYTES = 1024 * 1024  # site config huf_flow_webhook_max_bytes
DOC_EVENT_FLOWS_CACHE_KEY = "huf:doc_event_flows"
START_JOB = "huf.ai.flows.starts.start_hooked_flow"
# The short names the canvas may use for Frappe's document events (huf.huf.doc_events).
EVENT_ALIASES = {
	"insert": "after_insert",
	"new": "after_insert",
	"save": "on_update",
	"update": "on_update",
	"submit": "on_submit",
	"cancel": "on_cancel",
	"delete": "on_trash",
	"trash": "on_trash",
	"change": "on_change",
}
# Writing these is what flow and agent runs do themselves: a flow on them would start itself again.
UNTRIGGERABLE_DOCTYPES = frozenset(
	(
		"Flow Run",
		"Flow Definition",
		"Agent Run",
		"Agent Message",
		"Agent Conversation",
		"Agent Tool Call",
		"Agent Trigger",
		"Error Log",
	)
)
STILL_RUNNING = ("Queued", "Running")
ONE_SHOT = "at:"  # the schedule of a trigger.schedule node with `at`: one run, then done


# --- who a triggered run acts as: huf/ai/flows/acting.py --------------------------------------------


def start_triggered_run(flow: Any, payload: Any, trigger_type: str) -> Any:
	"""Start a run of `flow` as its acting user (raises FlowStartRefused); the Flow Run is theirs."""
	user = acting_user(flow)
	with acting_as(user):
		return start_flow_run(flow, payload, trigger_type=trigger_type, user=user)


def entry_node(flow: Any) -> dict:
	"""The node a run of `flow` (a Flow Definition) starts at ({} when it has none)."""
	try:
		graph = FlowGraph.load(flow.get_definition())
	except (frappe.ValidationError, KeyError, TypeError, AttributeError):
		return {}
	return graph.node(graph.entry) or {}


def entry_of_type(flow: Any, node_type: str) -> dict | None:
	node = entry_node(flow)
	return node if node.get("type") == node_type else None


# --- webhooks -------------------------------------------------------------------------------------


def receive_flow_webhook(flow_id: str, body_key: str | None = None) -> dict:
	"""POST to an Active flow whose entry node is trigger.webhook, with its key in `X-Huf-Flow-Key` (or
	`body_key`, the JSON body's `webhook_key`): starts a run with the JSON body as its payload.
	Returns {"flow_run_id"}."""
	flow_id = str(flow_id or "")
	check_webhook_rate(f"flow:{flow_id}")
	request = getattr(frappe.local, "request", None)
	check_payload_size(request)
	key = (request.headers.get(WEBHOOK_KEY_HEADER) if request is not None else None) or body_key or ""
	exists = bool(flow_id) and frappe.db.exists("Flow Definition", flow_id)
	stored = ""
	if exists:
		from frappe.utils.password import get_decrypted_password

		stored = (
			get_decrypted_password("Flow Definition", flow_id, "webhook_key", raise_exception=False) or ""
		)
	# Always compare (also for an unknown flow), in constant time.
	valid = hmac.compare_digest(str(key).encode(), (stored or "\0" * 40).encode())
	if not (exists and stored and valid):
		frappe.throw(_("Invalid flow webhook or key."), frappe.PermissionError)
	flow = frappe.get_doc("Flow Definition", flow_id)
	if flow.status != "Active" or not entry_of_type(flow, "trigger.webhook"):
		frappe.throw(
			_("Flow {0} takes no webhook calls: it must be Active and start with a webhook trigger.").format(
				flow_id
			),
			frappe.PermissionError,
		)
	payload = request_payload(request, flow_id)
	try:
		run = start_triggered_run(flow, payload, "Webhook")
	except FlowStartRefused as e:
		frappe.db.rollback()
		log_refusal(flow.name, str(e))
		frappe.db.commit()  # the Error Log stays; the caller learns only that the flow cannot start
		frappe.throw(_("Flow {0} cannot start; its Error Log says why.").format(flow.name), FlowStartRefused)
	return {"flow_run_id": run.name}


def check_payload_size(request: Any) -> None:
	"""Refuse (413) a body larger than `huf_flow_webhook_max_bytes` (default 1 MB)."""
	if request is None:
		return
	size = request.content_length
	if size is None:
		size = len(request.get_data(cache=True))
	limit = cint(frappe.conf.get("huf_flow_webhook_max_bytes")) or DEFAULT_WEBHOOK_MAX_BYTES
	if size > limit:
		frappe.throw(
			_("The webhook payload is too large ({0} bytes; at most {1} bytes, site config {2}).").format(
				size, limit, "huf_flow_webhook_max_bytes"
			),
			PayloadTooLargeError,
			title=_("Payload Too Large"),
		)


def request_payload(request: Any, flow_id: str) -> Any:
	"""The JSON body ({} when empty); a `flow_id` key naming this flow is routing and `webhook_key` the
	key, neither is payload."""
	if request is None:
		return {}
	text = request.get_data(cache=True, as_text=True)
	if not text.strip():
		return {}
	try:
		payload = json.loads(text)
	except ValueError:
		frappe.throw(_("The webhook body must be JSON."), frappe.ValidationError)
	if isinstance(payload, dict):
		if payload.get("flow_id") == flow_id:
			payload.pop("flow_id")
		payload.pop("cmd", None)
		payload.pop("webhook_key", None)
	return payload


# --- schedules ------------------------------------------------------------------------------------


def run_scheduled_flows(now: Any = None) -> None:
	"""Scheduler job (every minute): start the runs of Active scheduled flows that are due (none while
	Pause All Runs is ticked: the ticks are skipped, nothing counts as a failure)."""
	if budgets.is_paused():
		return
	now = get_datetime(now) if now else now_datetime()
	flows = frappe.get_all(
		"Flow Definition",
		filters={"status": "Active", "definition_json": ("like", "%trigger.schedule%")},
		pluck="name",
		order_by="name",
	)
	for name in flows:
		try:
			process_schedule(name, now)
		except Exception:
			frappe.db.rollback()
			frappe.log_error(
				title=_("Scheduled flow {0} failed").format(name),
				reference_doctype="Flow Definition",
				reference_name=name,
			)
			frappe.db.commit()


def process_schedule(name: str, now: datetime) -> str | None:
	"""Start one run of scheduled flow `name` if it is due at `now`; returns the Flow Run started."""
	flow = frappe.get_doc("Flow Definition", name)
	node = entry_of_type(flow, "trigger.schedule")
	if not node:
		return None
	state = flow_context.loads(frappe.db.get_value("Flow Definition", name, "trigger_state", for_update=True))
	try:
		schedule = schedule_of(node)
	except frappe.ValidationError as e:
		if state.get("last_error") != str(e):
			save_state(name, {**state, "last_error": str(e)})
			log_refusal(name, str(e))
		return None
	if schedule.startswith(ONE_SHOT):
		return fire_once(flow, schedule, state, now)
	planned = get_datetime(state["next_run"]) if state.get("next_run") else None
	if planned is None or state.get("schedule") != schedule:
		# New, or its schedule changed: plan the first run from now.
		save_state(name, {"schedule": schedule, "next_run": str(next_time(schedule, now))})
		return None
	if planned > now:
		return None
	state.update(next_run=str(next_due(schedule, planned, now)), last_due=str(planned))
	last = state.get("last_flow_run")
	if last and frappe.db.get_value("Flow Run", last, "status") in STILL_RUNNING:
		# The previous run has not finished: skip this time rather than pile up runs.
		save_state(name, {**state, "skipped": cint(state.get("skipped")) + 1})
		return None
	save_state(name, state)  # committed first: another tick cannot start this due time again
	try:
		run = start_triggered_run(flow, {"scheduled_for": str(planned)}, "Schedule")
	except FlowStartRefused as e:
		frappe.db.rollback()
		save_state(name, {**state, "last_error": str(e)})
		log_refusal(name, str(e))
		return None
	state.update(last_flow_run=run.name, last_error=None)
	save_state(name, state)
	return run.name


def fire_once(flow: Any, schedule: str, state: dict, now: datetime) -> str | None:
	"""A one-shot schedule ("at:<time>"): start its one run at or after its time, then never again for
	that time. The state records `fired` (committed under the row lock process_schedule took before the
	run starts), so of two ticks at once only one starts it; a refused start is not retried and the
	flow's owner is told."""
	name = flow.name
	if state.get("fired") == schedule:
		return None  # done: the schedule disabled itself
	due = next_time(schedule, now)
	if state.get("schedule") != schedule:
		state = {"schedule": schedule, "next_run": str(due)}
		if due > now:
			save_state(name, state)
	if due > now:
		return None
	state.update(next_run=None, fired=schedule, fired_at=str(now), last_due=str(due))
	save_state(name, state)
	try:
		run = start_triggered_run(flow, {"scheduled_for": str(due)}, "Schedule")
	except FlowStartRefused as e:
		frappe.db.rollback()
		save_state(name, {**state, "last_error": str(e)})
		log_refusal(name, str(e))
		notifications.owner_of_disabled(
			"Flow Definition",
			name,
			_("The one-shot schedule of flow {0} could not start").format(name),
			_("{0} It will not try again: set a new time to schedule it again.").format(e),
			f"/huf/flows/{quote(name, safe='')}",
		)
		frappe.db.commit()
		return None
	state.update(last_flow_run=run.name, last_error=None)
	save_state(name, state)
	return run.name


def schedule_of(node: dict) -> str:
	"""The schedule of a trigger.schedule node: "at:<time>" (a one-shot, `at`), "cron:<expression>"
	(with "|<time zone>" when its `timezone` is not the site's), or "every:<minutes>"."""
	config = node_config(node)
	at = str(config_value(config, "at", default="") or "").strip()
	if at:
		try:
			return f"{ONE_SHOT}{get_datetime(at)}"
		except Exception:
			frappe.throw(
				_("The schedule of node {0}: at {1} is not a date and time (YYYY-MM-DD HH:MM).").format(
					node.get("id"), at
				)
			)
	cron = str(config_value(config, "cron", "cron_expression", default="") or "").strip()
	if cron:
		if not valid_cron(cron):
			frappe.throw(
				_(
					"The schedule of node {0}: {1} is not a valid cron expression (five fields, e.g. 0 9 * * 1-5)."
				).format(node.get("id"), cron)
			)
		zone = schedule_zone(config_value(config, "timezone", "time_zone"), node.get("id"))
		return f"cron:{cron}|{zone}" if zone else f"cron:{cron}"
	minutes = config_value(config, "interval_minutes", "every_minutes")
	if cint(minutes) < 1 or flt(minutes) != cint(minutes):
		frappe.throw(
			_("The schedule of node {0} needs cron, or interval_minutes of at least 1.").format(
				node.get("id")
			)
		)
	return f"every:{cint(minutes)}"


def valid_cron(expression: str) -> bool:
	from croniter import croniter

	return len(expression.split()) == 5 and croniter.is_valid(expression)


def schedule_zone(value: Any, node_id: Any = None) -> str | None:
	"""The time zone a cron schedule is read in: None for the site's own (empty, or its name);
	an unknown name is refused."""
	zone = str(value or "").strip()
	if not zone or zone == get_system_timezone():
		return None
	if zone not in available_zones():
		problem = _("{0} is not a time zone (e.g. Europe/Berlin, America/New_York, UTC).").format(zone)
		if node_id:
			problem = _("The schedule of node {0}: {1}").format(node_id, problem)
		frappe.throw(problem)
	return zone


@functools.lru_cache(maxsize=1)
def available_zones() -> frozenset:
	from zoneinfo import available_timezones

	return frozenset(available_timezones())


def next_time(schedule: str, after: datetime) -> datetime:
	"""The first time of `schedule` after `after` (both in the site's time zone)."""
	kind, _sep, value = schedule.partition(":")
	if kind == "at":
		return get_datetime(value)  # a one-shot is due from its time on, however late the tick
	if kind == "cron":
		from croniter import croniter

		expression, _bar, zone = value.partition("|")
		if not zone:
			return croniter(expression, after).get_next(datetime)
		# read the expression on the clock of `zone`, answer on the site's clock
		from zoneinfo import ZoneInfo

		site = ZoneInfo(get_system_timezone())
		start = after.replace(tzinfo=site).astimezone(ZoneInfo(zone))
		return croniter(expression, start).get_next(datetime).astimezone(site).replace(tzinfo=None)
	return add_to_date(after, minutes=cint(value))


def next_due(schedule: str, planned: datetime, now: datetime) -> datetime:
	"""The first time of `schedule` after `now`, counted from the last planned time (no drift)."""
	kind, _sep, value = schedule.partition(":")
	if kind == "cron":
		return next_time(schedule, now)  # cron times are fixed on the clock
	step = cint(value) * 60
	missed = int((now - planned).total_seconds() // step) + 1
	return add_to_date(planned, minutes=cint(value) * missed)


def next_scheduled_runs(flow_id: str, count: int = 5) -> list[str]:
	"""The next `count` planned times of a scheduled flow (for the canvas), as the caller may read it."""
	flow = frappe.get_doc("Flow Definition", flow_id)
	flow.check_permission("read")
	node = entry_of_type(flow, "trigger.schedule")
	if not node:
		frappe.throw(_("Flow {0} does not start with a schedule trigger.").format(flow.name))
	schedule = schedule_of(node)
	state = flow_context.loads(flow.trigger_state)
	if schedule.startswith(ONE_SHOT):
		return [] if state.get("fired") == schedule else [str(next_time(schedule, now_datetime()))]
	now = now_datetime()
	planned = get_datetime(state["next_run"]) if state.get("next_run") else None
	if not (planned and planned > now and state.get("schedule") == schedule):
		planned = next_time(schedule, now)
	times = []
	for _position in range(max(1, min(cint(count) or 5, 50))):
		times.append(str(planned))
		planned = next_time(schedule, planned)
	return times


def save_state(name: str, state: dict) -> None:
	values = {key: value for key, value in state.items() if value is not None}
	frappe.db.set_value("Flow Definition", name, "trigger_state", json.dumps(values), update_modified=False)
	frappe.db.commit()


# --- document events ------------------------------------------------------------------------------


def run_hooked_flows(doc: Any, method: str | None = None) -> None:
	"""doc_events handler for every DocType: start the flows whose trigger.doc-event matches `doc`."""
	if doc.doctype == "Flow Definition":
		clear_doc_event_flows_cache()
		if method in ("on_update", "on_trash"):
			# again once committed: another process may have cached the old flows in between
			frappe.db.after_commit.add(clear_doc_event_flows_cache)
		return
	if doc.doctype in UNTRIGGERABLE_DOCTYPES or frappe.flags.in_install or frappe.flags.in_migrate:
		return
	try:
		flows = doc_event_flows(doc.doctype)
	except Exception:
		frappe.log_error(title=_("Flow doc event lookup failed"))
		return
	for flow in flows:
		if flow["event"] != method:
			continue
		try:
			fire_doc_event(flow, doc, method)
		except Exception:
			# A broken flow must never break the user's save.
			frappe.log_error(
				title=_("Flow {0} failed to start").format(flow["name"]),
				reference_doctype=doc.doctype,
				reference_name=doc.name,
			)


def doc_event_flows(doctype: str) -> list[dict]:
	"""Active flows starting with a trigger.doc-event on `doctype` (cached until a Flow Definition changes)."""
	flows = frappe.cache().get_value(DOC_EVENT_FLOWS_CACHE_KEY)
	if flows is None:
		flows = load_doc_event_flows()
		frappe.cache().set_value(DOC_EVENT_FLOWS_CACHE_KEY, flows)
	return flows.get(doctype, [])


def load_doc_event_flows() -> dict:
	found: dict[str, list] = {}
	for name in frappe.get_all(
		"Flow Definition",
		filters={"status": "Active", "definition_json": ("like", "%trigger.doc-event%")},
		pluck="name",
		order_by="creation asc",
	):
		flow = frappe.get_doc("Flow Definition", name)
		node = entry_of_type(flow, "trigger.doc-event")
		if not node:
			continue
		config = node_config(node)
		doctype = config_value(config, "doctype", "reference_doctype", "document_type")
		event = doc_event_name(config_value(config, "event", "doc_event"))
		if doctype and event:
			condition = str(config_value(config, "condition", default="") or "").strip()
			found.setdefault(doctype, []).append({"name": name, "event": event, "condition": condition})
	return found


def doc_event_name(event: Any) -> str | None:
	"""Frappe's name of a document event (`on_update`), also for the short names (`save`)."""
	event = str(event or "").strip().lower()
	event = EVENT_ALIASES.get(event, event)
	return event if event in DOC_EVENTS else None


def clear_doc_event_flows_cache(*args: Any, **kwargs: Any) -> None:
	frappe.cache().delete_value(DOC_EVENT_FLOWS_CACHE_KEY)


def fire_doc_event(flow: dict, doc: Any, event: str) -> None:
	"""Check the flow's condition and the acting user's access to `doc`; enqueue its start after commit."""
	snapshot = safe_expression.document_snapshot(doc)
	condition = flow.get("condition")
	if condition and not safe_expression.evaluate(
		condition, {"doc": snapshot}, _("The condition of flow {0}").format(flow["name"])
	):
		return
	row = frappe.db.get_value("Flow Definition", flow["name"], ["name", "owner", "run_as"], as_dict=True)
	if not row:
		return  # deleted since the cache was filled
	user = run_as_user(row)
	if not frappe.has_permission(doc.doctype, "read", doc=doc, user=user):
		# Not a broken flow, one document it may not see: log it (without its fields).
		log_refusal(
			flow["name"],
			_(
				"Flow {0} did not start for {1} {2}: its runs act as {3}, who may not read that document."
			).format(flow["name"], doc.doctype, doc.name, user),
			doc,
		)
		return
	frappe.enqueue(
		START_JOB,
		queue="short",
		enqueue_after_commit=True,
		flow=flow["name"],
		payload=snapshot,
		doctype=doc.doctype,
		docname=str(doc.name),
	)


def start_hooked_flow(flow: str, payload: dict, doctype: str, docname: str) -> str | None:
	"""Background job: start the Doc Event run of `flow` (still Active, still starting on a doc event)."""
	if not frappe.db.exists("Flow Definition", flow):
		return None
	doc = frappe.get_doc("Flow Definition", flow)
	if doc.status != "Active" or not entry_of_type(doc, "trigger.doc-event"):
		return None
	return start_or_log_refusal(doc, payload, "Doc Event")


def start_or_log_refusal(doc: Any, payload: Any, trigger_type: str) -> str | None:
	"""Start the `trigger_type` run of the flow `doc` and commit; the Flow Run's name. A refused start is
	rolled back and its Error Log committed instead (None)."""
	try:
		run = start_triggered_run(doc, payload, trigger_type)
	except FlowStartRefused as e:
		frappe.db.rollback()
		log_refusal(doc.name, str(e))
		frappe.db.commit()
		return None
	frappe.db.commit()
	return run.name


def log_refusal(flow: str, message: str, doc: Any = None) -> None:
	"""An Error Log saying why a flow did not start (referring to the document, when there is one)."""
	frappe.log_error(
		title=_("Flow {0} did not start").format(flow),
		message=message,
		reference_doctype=doc.doctype if doc is not None else "Flow Definition",
		reference_name=str(doc.name) if doc is not None else flow,
	)
