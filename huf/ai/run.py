"""The provider router (the spec's module `run`): `RunProvider.run` and `RunProvider.run_stream`.

Upstream's `RunProvider` handed an agent, a prompt, a provider and a model to LiteLLM. Every run now
starts at `huf.ai.runtime.front_door`, which checks that the caller may run the agent (and may give it
another provider or model), keeps the Agent Run and the conversation, and reaches the provider through
`huf.ai.providers` (docs/runtime.md). `RunProvider` hands its arguments on to that door:

- `agent`: the Agent's name, or an object whose `name` is (upstream's SDK agent); `context` may name
  it as `agent_name`, and the conversation as `conversation_id` (plus `channel_id`, `external_id`).
- `run(...)` returns an awaitable, as upstream's did, of the run's answer: `run_agent_sync`'s answer
  (`success`, `response`, `agent_run_id`, `conversation_id`, `usage`, `cost`, or `error`) with the
  answer also as `final_output`. `run_stream(...)` returns the run's events (`front_door.stream`).
"""

from collections.abc import Iterator
from typing import Any

import frappe

from huf.ai.runtime import front_door
from huf.ai.runtime.run_request import RunRequest

__all__ = ["RunProvider"]


class RunProvider:
	"""Runs an agent on a prompt through the front door (see the module's docstring)."""

	@staticmethod
	def run(
		agent: Any, enhanced_prompt: str, provider: str | None = None, model: str | None = None, context=None
	):
		"""An awaitable of the answer of one run of `agent` on `enhanced_prompt`, run to its end."""
		return _run_to_end(_request(agent, enhanced_prompt, provider, model, context))

	@staticmethod
	def run_stream(
		agent: Any, enhanced_prompt: str, provider: str | None = None, model: str | None = None, context=None
	) -> Iterator[dict]:
		"""The events of one run of `agent` on `enhanced_prompt`, produced as they are read."""
		return front_door.stream(_request(agent, enhanced_prompt, provider, model, context))


async def _run_to_end(request: RunRequest) -> frappe._dict:
	result = front_door.run_now(request)
	return frappe._dict(result.as_response(), final_output=result.answer)


def _request(
	agent: Any, prompt: str, provider: str | None, model: str | None, context: dict | None
) -> RunRequest:
	context = context or {}
	name = context.get("agent_name") or (agent if isinstance(agent, str) else getattr(agent, "name", None))
	return RunRequest(
		name,
		prompt,
		provider=provider or None,
		model=model or None,
		conversation=context.get("conversation_id"),
		channel=context.get("channel_id"),
		external_id=context.get("external_id"),
	)
