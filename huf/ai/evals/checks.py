"""The checks of an eval case: each kind judged on a case's outcome, with the reason it passed or failed."""

import json
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import frappe
from frappe import _
from frappe.utils import flt

# kind -> the field of an Agent Eval Check row it needs
NEEDS = {
	"Contains": "value",
	"Not Contains": "value",
	"Regex": "value",
	"JSON Schema": "value",
	"Called Tool": "tool",
	"Did Not Call Tool": "tool",
	"Max Cost": "threshold",
	"Max Turns": "threshold",
	"Rubric": "rubric",
}
DEFAULT_PASSING_SCORE = 7.0
MAX_PATTERN_CHARS = 2_000


@dataclass
class CaseOutcome:
	"""What one case's run produced."""

	answer: str = ""
	tool_calls: list[dict] = field(default_factory=list)  # [{"tool": name, "arguments": dict | str}]
	cost: float = 0.0
	turns: int = 0
	latency: float = 0.0


@dataclass
class CheckResult:
	"""One check's verdict; `score` and `reasoning` for rubric checks."""

	kind: str
	passed: bool
	reason: str
	score: float | None = None
	reasoning: str | None = None

	def as_dict(self) -> dict:
		return {key: value for key, value in self.__dict__.items() if value is not None}


def validate_check(row: Any) -> None:
	"""Refuse a check row that could never be judged (missing value, bad pattern or schema)."""
	kind = row.kind
	if kind not in NEEDS:
		frappe.throw(_("Unknown check kind {0}.").format(frappe.bold(kind)), frappe.ValidationError)
	needs = NEEDS[kind]
	if row.get(needs) in (None, ""):
		frappe.throw(
			_("Row {0}: a {1} check needs {2}.").format(row.idx, _(kind), _(row.meta.get_label(needs))),
			frappe.ValidationError,
		)
	if kind == "Regex":
		_compile(row.value, row.idx)
	if kind == "Called Tool" and row.arguments_match and _json_object(row.arguments_match) is None:
		_compile(row.arguments_match, row.idx)
	if kind == "JSON Schema":
		_schema(row.value, row.idx)
	if kind == "Rubric" and not row.judge_agent:
		frappe.throw(
			_("Row {0}: a Rubric check needs a Judge Agent.").format(row.idx), frappe.ValidationError
		)


def evaluate(check: Any, outcome: CaseOutcome, judge: Callable | None = None) -> CheckResult:
	"""Judge `check` (an Agent Eval Check row) on `outcome`; `judge(check, outcome)` scores rubrics."""
	kind = check.kind
	answer = outcome.answer or ""
	if kind in ("Contains", "Not Contains"):
		found = check.value in answer
		reason = _("{0} is in the answer") if found else _("{0} is not in the answer")
		return CheckResult(kind, found == (kind == "Contains"), reason.format(repr(check.value[:200])))
	if kind == "Regex":
		match = _compile(check.value).search(answer)
		reason = _("matched {0}").format(repr(match.group(0)[:200])) if match else _("no match")
		return CheckResult(kind, bool(match), reason)
	if kind == "JSON Schema":
		return _json_schema(check, answer)
	if kind == "Called Tool":
		return _called_tool(check, outcome.tool_calls)
	if kind == "Did Not Call Tool":
		calls = [call for call in outcome.tool_calls if call["tool"] == check.tool]
		reason = _("called {0} {1} time(s)").format(check.tool, len(calls)) if calls else _("not called")
		return CheckResult(kind, not calls, reason)
	if kind == "Max Cost":
		limit = flt(check.threshold)
		return CheckResult(
			kind, flt(outcome.cost) <= limit, _("cost {0} USD, limit {1}").format(outcome.cost, limit)
		)
	if kind == "Max Turns":
		limit = int(flt(check.threshold))
		return CheckResult(
			kind, outcome.turns <= limit, _("{0} turn(s), limit {1}").format(outcome.turns, limit)
		)
	if kind == "Rubric":
		score, reasoning = judge(check, outcome)
		passing = flt(check.threshold) or DEFAULT_PASSING_SCORE
		passed = score is not None and score >= passing
		reason = _("score {0}, passing {1}").format(score, passing) if score is not None else _("no score")
		return CheckResult(kind, passed, reason, score=score, reasoning=reasoning)
	return CheckResult(kind, False, _("unknown check kind"))


def _json_schema(check: Any, answer: str) -> CheckResult:
	import jsonschema

	try:
		value = json.loads(strip_fence(answer))
	except ValueError:
		return CheckResult(check.kind, False, _("the answer is not JSON"))
	errors = sorted(jsonschema.Draft202012Validator(_schema(check.value)).iter_errors(value), key=str)
	if errors:
		where = "/".join(str(part) for part in errors[0].absolute_path) or _("the answer")
		return CheckResult(check.kind, False, _("{0}: {1}").format(where, errors[0].message[:300]))
	return CheckResult(check.kind, True, _("matches the schema"))


def _called_tool(check: Any, calls: list[dict]) -> CheckResult:
	named = [call for call in calls if call["tool"] == check.tool]
	if not named:
		return CheckResult(check.kind, False, _("{0} was not called").format(check.tool))
	if not check.arguments_match:
		return CheckResult(check.kind, True, _("called {0}").format(check.tool))
	wanted = _json_object(check.arguments_match)
	for call in named:
		arguments = call["arguments"]
		if wanted is not None:
			matched = isinstance(arguments, dict) and _contains(arguments, wanted)
		else:
			text = arguments if isinstance(arguments, str) else json.dumps(arguments, sort_keys=True)
			matched = bool(_compile(check.arguments_match).search(text))
		if matched:
			return CheckResult(check.kind, True, _("called {0} with matching arguments").format(check.tool))
	return CheckResult(
		check.kind, False, _("{0} was called, never with matching arguments").format(check.tool)
	)


def _contains(value: Any, wanted: Any) -> bool:
	"""Whether `value` holds every key and value of `wanted` (recursively for objects)."""
	if isinstance(wanted, dict):
		return isinstance(value, dict) and all(
			k in value and _contains(value[k], v) for k, v in wanted.items()
		)
	return value == wanted


def _json_object(text: str) -> dict | None:
	try:
		value = json.loads(text)
	except (TypeError, ValueError):
		return None
	return value if isinstance(value, dict) else None


def _schema(text: str, idx: int | None = None) -> dict:
	import jsonschema

	try:
		schema = json.loads(text)
		jsonschema.Draft202012Validator.check_schema(schema)
	except (TypeError, ValueError, jsonschema.SchemaError) as exc:
		frappe.throw(
			_("Row {0}: the JSON Schema is not valid: {1}").format(idx, str(exc)[:200]),
			frappe.ValidationError,
		)
	return schema


def _compile(pattern: str, idx: int | None = None) -> re.Pattern:
	if len(pattern or "") > MAX_PATTERN_CHARS:
		frappe.throw(_("Row {0}: the pattern is too long.").format(idx), frappe.ValidationError)
	try:
		return re.compile(pattern)
	except re.error as exc:
		frappe.throw(_("Row {0}: not a regular expression: {1}").format(idx, exc), frappe.ValidationError)


def strip_fence(text: str) -> str:
	"""The text inside a ```json fence a model may wrap JSON in."""
	text = (text or "").strip()
	fenced = re.match(r"^```(?:json)?\s*(.*?)\s*```$", text, re.S)
	return fenced.group(1) if fenced else text
