"""Summaries of older conversation history, written by the agent's summary model through the LiteLLM seam."""

from __future__ import annotations

import json
from dataclasses import dataclass

import frappe

from huf.huf.prompt_versions import template_body

DEFAULT_SUMMARY_PROMPT = """Summarize the conversation below so that an assistant can continue it without reading it.
Keep facts, names, numbers, decisions, results of tool calls, open questions and the user's preferences.
Leave out greetings and small talk. Write plain prose of at most 250 words.

{summary_data}"""
PLACEHOLDER = "{summary_data}"
MAX_MESSAGE_CHARS = 2_000


@dataclass
class Summary:
	text: str
	provider: str
	model: str
	input_tokens: int = 0
	output_tokens: int = 0
	cost: float = 0.0


def summary_prompt(agent) -> str:
	"""The agent's summary prompt: its template (pinned version or latest), its local prompt, or the default."""
	if agent.get("summary_prompt_mode") == "Template" and agent.get("summary_prompt_template"):
		body = template_body(
			"Agent Summary Prompt",
			agent.summary_prompt_template,
			agent.get("summary_prompt_version_locked"),
			agent.get("summary_template_version_at_attach"),
		)
		if body:
			return body
	return (agent.get("summary_prompt") or "").strip() or DEFAULT_SUMMARY_PROMPT


def summary_model(agent) -> tuple[str, str]:
	"""(AI Provider, model name) for summaries: the Summary Model, else the agent's own model."""
	if agent.get("summary_model"):
		row = frappe.db.get_value("AI Model", agent.summary_model, ["model_name", "provider"], as_dict=True)
		if row and row.provider:
			return row.provider, row.model_name or agent.summary_model
	model = frappe.db.get_value("AI Model", agent.model, "model_name") if agent.get("model") else None
	return agent.provider, model or agent.model


def render_transcript(messages: list[dict], previous_summary: str | None = None) -> str:
	"""The messages as plain text for the summary prompt, after the summary written so far."""
	lines = []
	if previous_summary:
		lines.append(f"Summary of the conversation so far:\n{previous_summary}\n")
	for message in messages:
		role = message.get("role")
		content = _clip(message.get("content"))
		if role == "assistant" and message.get("tool_calls"):
			for call in message["tool_calls"]:
				function = call.get("function") or {}
				lines.append(
					f"Assistant called tool {function.get('name')} with {_clip(function.get('arguments'))}"
				)
			if content:
				lines.append(f"Assistant: {content}")
		elif role == "tool":
			lines.append(f"Tool result: {content}")
		elif role == "system":
			lines.append(f"System: {content}")
		else:
			lines.append(f"{'User' if role == 'user' else 'Assistant'}: {content}")
	return "\n".join(lines)


def fill_prompt(prompt: str, summary_data: str) -> str:
	"""Put the transcript where `{summary_data}` is, or after the prompt when it has no placeholder."""
	if PLACEHOLDER in prompt:
		return prompt.replace(PLACEHOLDER, summary_data)
	return f"{prompt.rstrip()}\n\n{summary_data}"


def summarize(agent, messages: list[dict], previous_summary: str | None = None) -> Summary:
	"""Ask the summary model for a summary of `messages` (raises ProviderError when the call fails)."""
	from huf.ai.providers.calls import completion
	from huf.ai.providers.cost import calculate_cost

	provider, model = summary_model(agent)
	prompt = fill_prompt(summary_prompt(agent), render_transcript(messages, previous_summary))
	answer = completion(provider, model, [{"role": "user", "content": prompt}])
	usage = answer.usage
	cost, _source = calculate_cost(
		model,
		usage.input_tokens,
		usage.output_tokens,
		usage.cached_tokens,
		provider=provider,
		response=answer.raw,
	)
	return Summary(
		text=(answer.content or "").strip(),
		provider=provider,
		model=model,
		input_tokens=usage.input_tokens,
		output_tokens=usage.output_tokens,
		cost=cost,
	)


def _clip(value) -> str:
	if value is None:
		return ""
	text = value if isinstance(value, str) else json.dumps(value, default=str)
	return text if len(text) <= MAX_MESSAGE_CHARS else text[:MAX_MESSAGE_CHARS] + " …"
