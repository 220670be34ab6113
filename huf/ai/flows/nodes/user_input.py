"""human.input ("Wait for input"): the run waits (Waiting User) until an assignee fills in a form.

Config: `title`; `instructions` (a `{{ }}` template shown above the form); `fields`, a list of
{"label", "fieldname", "fieldtype" (Data, Text, Int, Float, Check, Select, Date), "options" (Select:
a list or one option per line), "required"}; `assignees`: {"users": [...], "roles": [...]}, the users
and holders of roles who may answer (none listed: the user the run acts as).

First visit: the run waits with {"kind": "user", "title", "instructions", "fields", "assignees"} in its
`waiting`; it appears in its assignees' inbox (huf.ai.flows.inputs). An answer (resume_flow_run) is
checked against the fields (`clean_answer`) before it is stored; the visit that brings it returns
output {"values": {fieldname: value}, "by": who answered, "at": when}.

A flow whose form or assignees are wrong is refused when it is saved (`check`, the module's CHECKS,
each problem naming the node and the field); the run checks the form and assignees again.
"""

from __future__ import annotations

import json
import math
import re
from datetime import date
from typing import Any

import frappe
from frappe import _
from frappe.utils import cint, now_datetime

from huf.ai.flows import context as flow_context
from huf.ai.flows.nodes.approval import names, people_of
from huf.ai.flows.nodes.base import WAITING, NodeCall, NodeResult
from huf.ai.flows.nodes.schema import missing_settings, node_schema, problem, setting
from huf.huf import notifications

FIELD_TYPES = ("Data", "Text", "Int", "Float", "Check", "Select", "Date")
FIELDNAME = re.compile(r"^[a-z_][a-z0-9_]{0,60}$")
MAX_FIELDS = 50
MAX_LENGTH = {"Data": 140, "Text": 10000}
TRUE, FALSE = ("1", "true", "yes", "on"), ("0", "false", "no", "off", "")


def wait_for_input(call: NodeCall) -> NodeResult:
	"""Wait for the form to be answered (first visit), then hand the answer on (the visit that brings it)."""
	fields = fields_of(call.config, call.node_id)
	if call.resume:
		values = clean_answer(fields, call.resume.get("input"))
		output = {
			"values": values,
			"by": call.resume.get("by"),
			"at": str(call.resume.get("at") or now_datetime()),
		}
		return NodeResult(output=output)
	waiting = {
		"kind": "user",
		"title": title_of(call),
		"instructions": instructions_of(call),
		"fields": fields,
		"assignees": assignees_of(call.config, call.node_id, call.user),
	}
	assignees = waiting["assignees"]
	notifications.approvers_waiting(
		people_of(assignees.get("users") or [], assignees.get("roles") or []),
		_("Flow {0} asks for your input: {1}").format(call.run.flow_id, waiting["title"]),
		"Flow Run",
		call.run.name,
		waiting["instructions"],
	)
	return NodeResult(
		status=WAITING, waiting=waiting, output={k: v for k, v in waiting.items() if k != "kind"}
	)


def title_of(call: NodeCall) -> str:
	title = call.config.get("title")
	if isinstance(title, str) and title.strip():
		return title.strip()[:140]
	return _("Flow {0} needs your input").format(call.run.flow_id)


def instructions_of(call: NodeCall) -> str | None:
	template = call.config.get("instructions")
	if isinstance(template, str) and template.strip():
		return flow_context.render(
			template, call.context, _("The instructions of node {0}").format(call.node_id)
		)
	return None


def fields_of(config: dict, node_id: str) -> list[dict]:
	"""The form's fields from the node's settings, each checked: [{label, fieldname, fieldtype, options, required}]."""
	fields, problems = read_form(config, node_id)
	if problems:
		frappe.throw(problems[0]["message"])
	return fields


def read_form(config: dict, node_id: str) -> tuple[list[dict], list[dict]]:
	"""The form's fields from the node's settings, and what is wrong with them (schema.py `problem`s
	naming the node and the field: `fields` or `fields.<n>.<key>`)."""
	listed = config.get("fields")
	if isinstance(listed, str):
		try:
			listed = json.loads(listed or "[]")
		except ValueError:
			return [], [problem(node_id, "fields", _("The fields are not a JSON list."))]
	if not isinstance(listed, list) or not listed:
		return [], [problem(node_id, "fields", _("The form has no fields to ask for."))]
	if len(listed) > MAX_FIELDS:
		return [], [
			problem(node_id, "fields", _("The form asks for more than {0} fields.").format(MAX_FIELDS))
		]
	fields, problems, seen = [], [], set()
	for index, field in enumerate(listed, start=1):
		at = f"fields.{index - 1}"
		if not isinstance(field, dict):
			problems.append(problem(node_id, at, _("Field {0} must be an object.").format(index)))
			continue
		fieldname = str(field.get("fieldname") or "").strip()
		if not FIELDNAME.match(fieldname):
			message = _("Field {0} needs a fieldname of lowercase letters, digits and _, not {1}.")
			problems.append(problem(node_id, f"{at}.fieldname", message.format(index, fieldname or '""')))
			continue
		if fieldname in seen:
			problems.append(
				problem(node_id, f"{at}.fieldname", _("The form asks for {0} twice.").format(fieldname))
			)
			continue
		seen.add(fieldname)
		fieldtype = str(field.get("fieldtype") or field.get("type") or "Data").strip()
		if fieldtype not in FIELD_TYPES:
			message = _("Field {0} has the type {1}; choose one of {2}.")
			problems.append(
				problem(
					node_id, f"{at}.fieldtype", message.format(fieldname, fieldtype, ", ".join(FIELD_TYPES))
				)
			)
			continue
		options = names(field.get("options")) if fieldtype == "Select" else []
		if fieldtype == "Select" and not options:
			problems.append(
				problem(node_id, f"{at}.options", _("Select field {0} has no options.").format(fieldname))
			)
			continue
		label = str(field.get("label") or "").strip() or fieldname.replace("_", " ").capitalize()
		fields.append(
			{
				"label": label[:140],
				"fieldname": fieldname,
				"fieldtype": fieldtype,
				"options": options,
				"required": 1 if cint(field.get("required") or field.get("reqd")) else 0,
			}
		)
	return fields, problems


def assignees_of(config: dict, node_id: str, run_user: str) -> dict:
	"""{"users": [...], "roles": [...]} who may answer, each checked; none listed: the run's user."""
	users, roles, problems = read_assignees(config, node_id)
	if problems:
		frappe.throw(problems[0]["message"])
	if not users and not roles:
		users = [run_user]
	return {"users": users, "roles": roles}


def read_assignees(config: dict, node_id: str) -> tuple[list[str], list[str], list[dict]]:
	"""The users and roles the node lists as assignees, and a problem for each that does not exist."""
	listed = config.get("assignees")
	listed = listed if isinstance(listed, dict) else {"users": listed}
	users = list(dict.fromkeys(names(listed.get("users")) + names(listed.get("user"))))
	roles = list(dict.fromkeys(names(listed.get("roles")) + names(listed.get("role"))))
	problems = [
		problem(node_id, "assignees", _("Assignee {0} is not a user.").format(user))
		for user in users
		if not frappe.db.exists("User", user)
	]
	problems += [
		problem(node_id, "assignees", _("Assignee role {0} does not exist.").format(role))
		for role in roles
		if not frappe.db.exists("Role", role)
	]
	return users, roles, problems


def check(node_id: str, config: dict) -> list[dict]:
	"""What is wrong with the node's settings, checked when its flow is saved: its form (as `fields_of`
	reads it at run time) and its assignees, who must exist and of whom one at least must be able to
	answer (an enabled user, or an enabled holder of a listed role)."""
	problems = missing_settings(SCHEMAS["human.input"], config, node_id)
	if not any(p.get("field") == "fields" for p in problems):
		problems += read_form(config, node_id)[1]
	users, roles, assignee_problems = read_assignees(config, node_id)
	problems += assignee_problems
	if (users or roles) and not assignee_problems and not can_answer(users, roles):
		message = _("None of the assignees can answer: {0} are disabled or hold no role of an enabled user.")
		problems.append(problem(node_id, "assignees", message.format(", ".join(users + roles))))
	return problems


def can_answer(users: list[str], roles: list[str]) -> bool:
	"""Whether one of `users` is enabled or an enabled user holds one of `roles`."""
	if users and frappe.get_all("User", filters={"name": ("in", users), "enabled": 1}, limit=1):
		return True
	if not roles:
		return False
	holders = frappe.get_all(
		"Has Role", filters={"parenttype": "User", "role": ("in", roles)}, pluck="parent"
	)
	return bool(holders) and bool(
		frappe.get_all("User", filters={"name": ("in", holders), "enabled": 1}, limit=1)
	)


def clean_answer(fields: list[dict], answer: Any) -> dict:
	"""The answer to the form as stored: each field's value in its type; throws a ValidationError that
	lists every missing, unknown or invalid value."""
	if isinstance(answer, str) and answer.strip():
		try:
			answer = json.loads(answer)
		except ValueError:
			answer = None
	if answer in (None, ""):
		answer = {}
	if not isinstance(answer, dict):
		frappe.throw(_("The answer must be an object of field values."), frappe.ValidationError)
	known = {field["fieldname"] for field in fields}
	problems = [_("{0} is not a field of this form.").format(key) for key in answer if key not in known]
	values = {}
	for field in fields:
		try:
			values[field["fieldname"]] = field_value(field, answer.get(field["fieldname"]))
		except ValueError as e:
			problems.append(str(e))
	if problems:
		frappe.throw(" ".join(problems), frappe.ValidationError, title=_("The answer is not complete"))
	return values


def field_value(field: dict, value: Any) -> Any:
	"""`value` in the field's type (None when left empty); a ValueError says what is wrong."""
	label, fieldtype = field["label"], field["fieldtype"]
	if isinstance(value, str):
		value = value.strip()
	if fieldtype == "Check":
		checked = checkbox(value, label)
		if field["required"] and not checked:
			raise ValueError(_("{0} must be ticked.").format(label))
		return checked
	if value in (None, ""):
		if field["required"]:
			raise ValueError(_("{0} is required.").format(label))
		return None
	if fieldtype in ("Data", "Text"):
		if isinstance(value, bool) or not isinstance(value, str | int | float):
			raise ValueError(_("{0} must be text.").format(label))
		value = str(value)
		if len(value) > MAX_LENGTH[fieldtype]:
			raise ValueError(_("{0} is longer than {1} characters.").format(label, MAX_LENGTH[fieldtype]))
		return value
	if fieldtype == "Int":
		return whole_number(value, label)
	if fieldtype == "Float":
		return number(value, label)
	if fieldtype == "Select":
		if value not in field["options"]:
			raise ValueError(
				_("{0} must be one of {1}, not {2}.").format(label, ", ".join(field["options"]), value)
			)
		return value
	return date_text(value, label)


def checkbox(value: Any, label: str) -> int:
	if value is None or isinstance(value, bool) or value in (0, 1):
		return 1 if value else 0
	if isinstance(value, str) and value.lower() in TRUE + FALSE:
		return 1 if value.lower() in TRUE else 0
	raise ValueError(_("{0} must be ticked or not (1 or 0).").format(label))


def whole_number(value: Any, label: str) -> int:
	if isinstance(value, int) and not isinstance(value, bool):
		return value
	if isinstance(value, float) and value.is_integer():
		return int(value)
	if isinstance(value, str) and re.fullmatch(r"[+-]?\d{1,18}", value):
		return int(value)
	raise ValueError(_("{0} must be a whole number, not {1}.").format(label, value))


def number(value: Any, label: str) -> float:
	if not isinstance(value, bool) and isinstance(value, int | float | str):
		try:
			parsed = float(value)
		except ValueError:
			parsed = math.nan
		if math.isfinite(parsed):
			return parsed
	raise ValueError(_("{0} must be a number, not {1}.").format(label, value))


def date_text(value: Any, label: str) -> str:
	"""A date as YYYY-MM-DD."""
	if isinstance(value, str) and re.fullmatch(r"\d{4}-\d{2}-\d{2}", value):
		try:
			return date.fromisoformat(value).isoformat()
		except ValueError:
			pass
	raise ValueError(_("{0} must be a date (YYYY-MM-DD), not {1}.").format(label, value))


EXECUTORS = {"human.input": wait_for_input}
CHECKS = {"human.input": check}

SCHEMAS = {
	"human.input": node_schema(
		"Wait for input",
		"ClipboardList",
		"control",
		"Waits until an assignee fills in a form; later steps read the answer.",
		setting("title", "Title", "string", "What the assignees see as the request's title."),
		setting(
			"instructions",
			"Instructions",
			"text",
			"Shown above the form.",
			supports_variables=True,
		),
		setting(
			"fields",
			"Fields",
			"json",
			'[{"label", "fieldname", "fieldtype": Data | Text | Int | Float | Check | Select | Date, '
			'"options" (Select), "required"}]',
			required=True,
		),
		setting(
			"assignees",
			"Assignees",
			"approvers",
			'{"users": [...], "roles": [...]}: who may answer (none: the user the run acts as).',
		),
	),
}
