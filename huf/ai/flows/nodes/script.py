"""code: a short script over the flow context, in Huf's safe expression language or, for System Managers
on sites with server scripts enabled, in Python through Frappe's `safe_exec`. Nothing else ever runs.

- `language: expression` (the default): statements, one a line (or spanning lines inside brackets):
  `name = expression` sets a name that later statements read; a bare expression is a value. Every
  expression is a safe expression (huf.huf.safe_expression: no calls, bounded sizes) over the flow
  context and the names set before it. The output is the value of the last bare expression, else the
  names the script set (an object).
- `language: python`: the code runs in Frappe's `frappe.utils.safe_exec.safe_exec` (RestrictedPython)
  with `context` (what templates see: payload, vars, nodes, last...) and sets `result`, the output.
  Like Frappe's Server Scripts it is refused unless the site enables server scripts
  (`server_script_enabled`), only a System Manager may save a flow with Python code, and it runs only
  when the run acts as a System Manager (it can read what that user can through Frappe's API).

The output becomes the node's output (`nodes.<id>.output`, `last`) like every node's.
"""

from __future__ import annotations

import ast
import json
from typing import Any

import frappe
from frappe import _

from huf.ai.flows import context as flow_context
from huf.ai.flows.nodes.base import NodeCall, NodeResult
from huf.ai.flows.nodes.schema import missing_settings, node_schema, problem, setting
from huf.huf import safe_expression

LANGUAGES = ("expression", "python")
MAX_CODE_LENGTH = 20_000
MAX_STATEMENTS = 200
RESERVED = frozenset(("payload", "trigger", "vars", "nodes", "last", "input"))
PYTHON_ROLE = "System Manager"


class CodeNodeError(frappe.ValidationError):
	"""A code node's script is not allowed or failed (the message names the node)."""


def code_node(call: NodeCall) -> NodeResult:
	label = _("Code node {0}").format(call.node_id)
	code = str(call.config.get("code") or "")
	if language_of(call.config) == "python":
		return NodeResult(output=run_python(code, call.context, call.user, label))
	return NodeResult(output=run_expressions(code, call.context, label))


def language_of(config: dict) -> str:
	return str(config.get("language") or "expression").strip().lower()


# --- the safe expression language ------------------------------------------------------------------


def statements(code: str, label: str) -> list[tuple[str | None, str]]:
	"""The script's statements as (name set or None, expression source), refused when it is anything
	but assignments to one plain name and bare expressions."""
	if not code.strip():
		raise CodeNodeError(_("{0} has no code.").format(label))
	if len(code) > MAX_CODE_LENGTH:
		raise CodeNodeError(_("{0}: the code is longer than {1} characters.").format(label, MAX_CODE_LENGTH))
	try:
		tree = ast.parse(code, mode="exec")
	except SyntaxError as e:
		raise CodeNodeError(_("{0}: line {1}: {2}.").format(label, e.lineno, e.msg)) from None
	if len(tree.body) > MAX_STATEMENTS:
		raise CodeNodeError(_("{0}: at most {1} statements.").format(label, MAX_STATEMENTS))
	out = []
	for statement in tree.body:
		where = _("{0}, line {1}").format(label, statement.lineno)
		if isinstance(statement, ast.Expr):
			out.append((None, ast.get_source_segment(code, statement.value)))
			continue
		if not (
			isinstance(statement, ast.Assign)
			and len(statement.targets) == 1
			and isinstance(statement.targets[0], ast.Name)
		):
			raise CodeNodeError(
				_(
					"{0}: only name = expression and bare expressions are allowed (no if, for, def, import or calls)."
				).format(where)
			)
		name = statement.targets[0].id
		if name.startswith("__") or name in RESERVED:
			raise CodeNodeError(
				_("{0}: {1} is a name of the flow context; choose another name.").format(where, name)
			)
		out.append((name, ast.get_source_segment(code, statement.value)))
	return out


def run_expressions(code: str, context: dict, label: str) -> Any:
	names = flow_context.names(context)
	assigned: dict[str, Any] = {}
	result, has_result = None, False
	for position, (name, source) in enumerate(statements(code, label), 1):
		value = safe_expression.evaluate(
			source, {**names, **assigned}, _("{0}, statement {1}").format(label, position)
		)
		if name is None:
			result, has_result = value, True
		else:
			assigned[name] = value
	return result if has_result else assigned


# --- Python through Frappe's safe_exec -------------------------------------------------------------


def run_python(code: str, context: dict, user: str, label: str) -> Any:
	from frappe.utils import safe_exec

	if not code.strip():
		raise CodeNodeError(_("{0} has no code.").format(label))
	if not safe_exec.is_safe_exec_enabled():
		raise CodeNodeError(
			_(
				"{0} runs Python through Frappe's server scripts, which are disabled on this site: enable them"
				" (bench set-config -g server_script_enabled 1) or write the code in the expression language."
			).format(label)
		)
	if PYTHON_ROLE not in frappe.get_roles(user):
		raise CodeNodeError(
			_("{0}: Python code runs only when the flow run acts as a {1}, and this run acts as {2}.").format(
				label, PYTHON_ROLE, user
			)
		)
	scope = {"result": None}
	safe_exec.safe_exec(
		code,
		{"context": json.loads(json.dumps(flow_context.names(context), default=str))},
		scope,
		restrict_commit_rollback=True,
		script_filename=f"flow code {label}",
	)
	try:
		return json.loads(json.dumps(scope.get("result"), default=str))
	except (TypeError, ValueError) as e:
		raise CodeNodeError(_("{0}: result must be JSON data: {1}").format(label, e)) from None


# --- checks at save ---------------------------------------------------------------------------------


def check(node_id: str, config: dict) -> list[dict]:
	problems = missing_settings(SCHEMAS["code"], config, node_id)
	code = str(config.get("code") or "")
	language = language_of(config)
	if problems or not code.strip():
		return problems
	label = f"Code node {node_id}"
	if language == "python":
		if PYTHON_ROLE not in frappe.get_roles():
			problems.append(
				problem(node_id, "code", f"only a {PYTHON_ROLE} may save a flow with Python code.")
			)
		try:
			compile(code, label, "exec", flags=ast.PyCF_ONLY_AST)
		except SyntaxError as e:
			problems.append(problem(node_id, "code", f"line {e.lineno}: {e.msg}."))
		return problems
	try:
		for position, (_name, source) in enumerate(statements(code, label), 1):
			safe_expression.check(source, label=f"{label}, statement {position}")
	except (CodeNodeError, safe_expression.ExpressionError) as e:
		problems.append({"message": str(e), "node_id": node_id, "field": "code"})
	return problems


EXECUTORS = {"code": code_node}
CHECKS = {"code": check}

SCHEMAS = {
	"code": node_schema(
		"Code",
		"Code",
		"transform",
		"Computes a value from the flow's data: safe expressions, or Python (System Managers, server scripts enabled).",
		setting(
			"language",
			"Language",
			"select",
			"expression: name = expression lines over the flow context; python: Frappe's safe_exec, sets result.",
			required=True,
			options=list(LANGUAGES),
			default="expression",
		),
		setting(
			"code",
			"Code",
			"text",
			"e.g. total = payload.qty * payload.price, then total > 100 on the last line (the output).",
			required=True,
		),
	),
}
