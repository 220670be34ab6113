"""What a run is asked to do: `RunRequest`, and `RunOptions`, the one list of a run's optional arguments.

Every entry point (REST, chat, stream, triggers, flows, orchestration steps, the Run Agent tool,
messaging channels, the console) describes its run as a `RunRequest` and hands it to one of the
doors of `huf.ai.runtime.front_door`. What the caller says is split by trust:

- `options` (`RunOptions`) are what a user may name over REST; each is checked as the acting user
  (`huf.ai.runtime.run_options.check_options`) before anything is written.
- `run_fields` and `context` are set by Huf's own code only (a flow's node, a trigger, a parent run):
  they are stored on the Agent Run and in its runtime context as they are.
"""

from dataclasses import dataclass, field, fields
from typing import Any

import frappe
from frappe import _

# keys Frappe's request handling leaves in the arguments of a whitelisted function with **kwargs
FRAMEWORK_ARGUMENTS = ("cmd", "_", "sid", "csrf_token")


@dataclass
class RunOptions:
	"""The optional arguments of `run_agent_sync` / `run_agent_sync_chat` (see `huf.ai.runtime.run_options`)."""

	files: Any = None
	response_format: Any = None
	parent_run_id: str | None = None
	orchestration_id: str | None = None
	flow_run_id: str | None = None
	flow_node_id: str | None = None
	run_kind: str | None = None
	prompt_template: str | None = None
	prompt_version: Any = None
	parent_conversation_id: str | None = None
	invoked_by_agent: str | None = None
	prompt_cache_options: Any = None

	@classmethod
	def from_arguments(cls, arguments: dict) -> "RunOptions":
		"""The options among a request's arguments; an argument a run does not know is refused (a
		misspelt option must not be ignored silently)."""
		known = {option.name for option in fields(cls)}
		unknown = sorted(key for key in arguments if key not in known and key not in FRAMEWORK_ARGUMENTS)
		if unknown:
			frappe.throw(
				_("Unknown argument(s): {0}.").format(", ".join(frappe.bold(key[:60]) for key in unknown)),
				frappe.ValidationError,
			)
		return cls(**{key: value for key, value in arguments.items() if key in known})


@dataclass
class RunRequest:
	"""One run of `agent` on `prompt`, as `user` (default: the session user).

	- `conversation`: a conversation to continue (the user must be allowed to write it); else the
	  user's active one for `channel` / `external_id`, or a new one with `new_conversation`.
	- `provider` / `model`: another model than the agent's (only for users who may edit the agent).
	- `attachments`: file URLs or {file_url} items the model sees with the prompt.
	- `now`: run it inline even when the agent queues (`front_door.start`).
	- `run_fields`: Agent Run fields set by Huf's code (flow_run, parent_run, agent_trigger, run_kind...).
	- `context`: runtime context entries set by Huf's code (e.g. `orchestration_step`).
	- `admitted_conversation`: a conversation document Huf's code already chose and checked (an
	  orchestration's); it is used as it is.
	- `tool_call`: {name, arguments}: call this tool of the agent instead of asking the model (a tool
	  run, `huf.ai.runtime.tool_runs`, which builds such requests).
	"""

	agent: str
	prompt: Any
	user: str | None = None
	conversation: str | None = None
	new_conversation: bool = False
	channel: str | None = None
	external_id: str | None = None
	provider: str | None = None
	model: str | None = None
	attachments: Any = None
	now: bool = False
	options: RunOptions = field(default_factory=RunOptions)
	run_fields: dict = field(default_factory=dict)
	context: dict = field(default_factory=dict)
	admitted_conversation: Any = None
	tool_call: dict | None = None


def from_rest(arguments: dict) -> RunRequest:
	"""The request of `run_agent_sync` / `run_agent_sync_chat` from their arguments (`locals()`):
	agent_name, prompt, provider, model, channel_id, external_id, conversation_id, now, attachments,
	create_new (chat only) and the `options` they collected with **options."""
	return RunRequest(
		arguments["agent_name"],
		arguments["prompt"],
		provider=arguments.get("provider"),
		model=arguments.get("model"),
		channel=arguments.get("channel_id"),
		external_id=arguments.get("external_id"),
		conversation=arguments.get("conversation_id"),
		new_conversation=truthy(arguments.get("create_new")),
		now=truthy(arguments.get("now")),
		attachments=arguments.get("attachments"),
		options=RunOptions.from_arguments(arguments.get("options") or {}),
	)


def truthy(value: Any) -> bool:
	"""A flag as REST clients send it: 1, "1", "true", "yes", "on"."""
	if isinstance(value, str):
		return value.strip().lower() in ("1", "true", "yes", "on")
	return bool(value)
