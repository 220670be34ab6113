"""The optional arguments of a run (`run_agent_sync`, `run_agent_sync_chat`), checked as the caller.

`check_options(agent, options)` validates every `RunOptions` field (`huf.ai.runtime.run_request`) and
the caller's right to each record it names, before anything is written, and returns `CheckedOptions`:
fields of the Agent Run (links) and entries of its runtime context (what the loop uses). Each refusal
is a clear error:

- `files`: file URLs (or {file_url}) added to the run's attachments; each a File the caller may read.
- `response_format`: {"type": "json_object"}, {"type": "json_schema", "json_schema": {...}}, or a
  bare JSON schema (wrapped as json_schema); passed to the model.
- `parent_run_id`: an Agent Run the caller may read (the run is its child).
- `orchestration_id`: an Agent Orchestration of this agent whose parent run the caller may read.
- `flow_run_id` / `flow_node_id`: a Flow Run the caller may read, and the node the run serves.
- `run_kind`: one of the Agent Run's Run Kind options.
- `prompt_template` / `prompt_version`: the Agent Prompt (a version of the template's lineage, or
  of the agent's own template) whose text replaces the agent's instructions; the caller must read it.
- `parent_conversation_id`: an Agent Conversation the caller may read (a sub-agent's origin).
- `invoked_by_agent`: an Agent the caller may read (the agent that asked for this run).
- `prompt_cache_options`: {"prompt_cache_key": str, "prompt_cache_retention": "in_memory" | "24h"},
  passed to the provider's prompt caching.
"""

import json
from dataclasses import dataclass, field
from typing import Any

import frappe
from frappe import _
from frappe.utils import cint

from huf.ai.runtime.run_request import RunOptions
from huf.huf import run_access

MAX_FILES = 20
MAX_ID_LENGTH = 140
MAX_RESPONSE_FORMAT_CHARS = 20_000
RESPONSE_FORMAT_TYPES = ("text", "json_object", "json_schema")
CACHE_RETENTIONS = ("in_memory", "24h")
CACHE_OPTIONS = ("prompt_cache_key", "prompt_cache_retention")


@dataclass
class CheckedOptions:
	"""What checked options become: Agent Run fields (links), runtime context entries, file URLs."""

	run_values: dict = field(default_factory=dict)
	context: dict = field(default_factory=dict)
	files: list = field(default_factory=list)


def check_options(agent: Any, options: RunOptions) -> CheckedOptions:
	"""Check every option as the session user; return what the run stores (see the module docstring)."""
	checked = CheckedOptions()
	values, context = checked.run_values, checked.context
	checked.files = _files(options.files)
	if options.response_format not in (None, "", {}):
		context["response_format"] = _response_format(options.response_format)
	if options.parent_run_id:
		values["parent_run"] = _readable_run(options.parent_run_id, "parent_run_id").name
		values["is_child"] = 1
	if options.orchestration_id:
		values["agent_orchestration"] = _orchestration(options.orchestration_id, agent.name)
	if options.flow_run_id:
		flow_run = _readable(
			"Flow Run", options.flow_run_id, "flow_run_id", _("Flow Run {0} not found or access denied.")
		)
		values.update(flow_run=flow_run.name, flow_id=flow_run.get("flow_id") or flow_run.flow_definition)
	if options.flow_node_id:
		if not options.flow_run_id:
			frappe.throw(_("flow_node_id needs flow_run_id."), frappe.ValidationError)
		values["flow_node_id"] = _identifier(options.flow_node_id, "flow_node_id")
	if options.run_kind:
		values["run_kind"] = _run_kind(options.run_kind)
	if options.prompt_template or options.prompt_version not in (None, ""):
		context["prompt_template"] = _prompt(agent, options.prompt_template, options.prompt_version)
	if options.parent_conversation_id:
		context["parent_conversation_id"] = _readable(
			"Agent Conversation",
			options.parent_conversation_id,
			"parent_conversation_id",
			_("Conversation {0} not found or access denied."),
		).name
	if options.invoked_by_agent:
		context["invoked_by_agent"] = _readable(
			"Agent", options.invoked_by_agent, "invoked_by_agent", _("Agent {0} not found or access denied.")
		).name
	if options.prompt_cache_options not in (None, "", {}):
		context["prompt_cache_options"] = _cache_options(options.prompt_cache_options)
	return checked


# --- one check each ------------------------------------------------------------------------------


def _json_value(value: Any, argument: str) -> Any:
	if isinstance(value, str):
		try:
			return json.loads(value)
		except ValueError:
			frappe.throw(_("{0} must be JSON.").format(argument), frappe.ValidationError)
	return value


def _files(value: Any) -> list[str]:
	if value in (None, "", []):
		return []
	if isinstance(value, str) and not value.lstrip().startswith("["):
		value = [value]
	value = _json_value(value, "files")
	if not isinstance(value, list):
		frappe.throw(_("files must be a list of file URLs."), frappe.ValidationError)
	if len(value) > MAX_FILES:
		frappe.throw(_("At most {0} files can be attached to a run.").format(MAX_FILES))
	urls = []
	for item in value:
		url = item.get("file_url") if isinstance(item, dict) else item
		if not isinstance(url, str) or not url.strip() or len(url) > 1000:
			frappe.throw(_("files must be a list of file URLs."), frappe.ValidationError)
		urls.append(_readable_file(url.strip()))
	return urls


def _readable_file(url: str) -> str:
	name = frappe.db.get_value("File", {"file_url": url}, "name")
	file = frappe.get_doc("File", name) if name else None
	if file is None or (cint(file.is_private) and not frappe.has_permission("File", "read", doc=file)):
		frappe.throw(
			_("File {0} not found or access denied.").format(frappe.bold(url[:200])), frappe.PermissionError
		)
	return url


def _response_format(value: Any) -> dict:
	value = _json_value(value, "response_format")
	if not isinstance(value, dict) or len(json.dumps(value)) > MAX_RESPONSE_FORMAT_CHARS:
		frappe.throw(_response_format_help(), frappe.ValidationError)
	kind = value.get("type")
	if kind in ("text", "json_object") and set(value) == {"type"}:
		return value
	if kind == "json_schema":
		spec = value.get("json_schema")
		if (
			isinstance(spec, dict)
			and isinstance(spec.get("name"), str)
			and spec["name"].strip()
			and isinstance(spec.get("schema"), dict)
		):
			return value
	elif kind in ("object", "array") or "properties" in value:  # a bare JSON schema
		return {"type": "json_schema", "json_schema": {"name": "response", "schema": value}}
	frappe.throw(_response_format_help(), frappe.ValidationError)


def _response_format_help() -> str:
	return _(
		'response_format must be {"type": "json_object"}, {"type": "json_schema", "json_schema": {"name": ..., "schema": {...}}} or a JSON schema object.'
	)


def _identifier(value: Any, argument: str) -> str:
	if not isinstance(value, str) or not value.strip() or len(value) > MAX_ID_LENGTH or "\x00" in value:
		frappe.throw(
			_("{0} must be a name of at most {1} characters.").format(argument, MAX_ID_LENGTH),
			frappe.ValidationError,
		)
	return value.strip()


def _readable(doctype: str, name: Any, argument: str, denied: str) -> Any:
	name = _identifier(name, argument)
	doc = frappe.get_doc(doctype, name) if frappe.db.exists(doctype, name) else None
	if doc is None or not frappe.has_permission(doctype, "read", doc=doc):
		frappe.throw(denied.format(frappe.bold(name)), frappe.PermissionError)
	return doc


def _readable_run(name: Any, argument: str) -> Any:
	name = _identifier(name, argument)
	if not frappe.db.exists("Agent Run", name):
		frappe.throw(_("Agent Run not found or access denied."), frappe.PermissionError)
	run = frappe.get_doc("Agent Run", name)
	run_access.check_can_read_run(run)
	return run


def _orchestration(name: Any, agent: str) -> str:
	name = _identifier(name, "orchestration_id")
	row = frappe.db.get_value("Agent Orchestration", name, ["name", "agent", "parent_run"], as_dict=True)
	if not row or row.agent != agent or not row.parent_run:
		frappe.throw(
			_("Agent Orchestration {0} of agent {1} not found or access denied.").format(
				frappe.bold(name), frappe.bold(agent)
			),
			frappe.PermissionError,
		)
	_readable_run(row.parent_run, "orchestration_id")
	return row.name


def _run_kind(value: Any) -> str:
	options = frappe.get_meta("Agent Run").get_options("run_kind") or ""
	allowed = [option for option in options.split("\n") if option]
	if value not in allowed:
		frappe.throw(
			_("run_kind must be one of: {0}.").format(", ".join(allowed)),
			frappe.ValidationError,
		)
	return value


def _prompt(agent: Any, template: Any, version: Any) -> str:
	"""The Agent Prompt version to run with: `version` of the lineage of `template` (default: the agent's)."""
	if template:
		template = _identifier(template, "prompt_template")
	else:
		template = agent.get("agent_prompt")
		if not template:
			frappe.throw(
				_("prompt_version needs prompt_template: agent {0} has no prompt template.").format(
					frappe.bold(agent.name)
				),
				frappe.ValidationError,
			)
	row = frappe.db.get_value("Agent Prompt", template, ["name", "lineage", "version"], as_dict=True)
	name = row.name if row else None
	if row and version not in (None, ""):
		number = cint(version) if str(version).strip().isdigit() else 0
		if number <= 0 or number > 1_000_000:
			frappe.throw(_("prompt_version must be a positive whole number."), frappe.ValidationError)
		name = (
			row.name
			if cint(row.version) == number
			else frappe.db.get_value("Agent Prompt", {"lineage": row.lineage or row.name, "version": number})
		)
	prompt = frappe.get_doc("Agent Prompt", name) if name else None
	if prompt is None or not frappe.has_permission("Agent Prompt", "read", doc=prompt):
		frappe.throw(
			_("Agent Prompt {0} (version {1}) not found or access denied.").format(
				frappe.bold(template), version or _("latest")
			),
			frappe.PermissionError,
		)
	return prompt.name


def _cache_options(value: Any) -> dict:
	value = _json_value(value, "prompt_cache_options")
	if not isinstance(value, dict) or set(value) - set(CACHE_OPTIONS):
		frappe.throw(
			_("prompt_cache_options takes only {0}.").format(", ".join(CACHE_OPTIONS)), frappe.ValidationError
		)
	options = {}
	key = value.get("prompt_cache_key")
	if key not in (None, ""):
		options["prompt_cache_key"] = _identifier(key, "prompt_cache_key")
	retention = value.get("prompt_cache_retention")
	if retention not in (None, ""):
		if retention not in CACHE_RETENTIONS:
			frappe.throw(
				_("prompt_cache_retention must be one of: {0}.").format(", ".join(CACHE_RETENTIONS)),
				frappe.ValidationError,
			)
		options["prompt_cache_retention"] = retention
	return options
