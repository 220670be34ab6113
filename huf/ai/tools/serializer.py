"""Tools in the OpenAI function format, the one every LiteLLM provider accepts."""

from __future__ import annotations

from typing import Any

EMPTY_PARAMETERS = {"type": "object", "properties": {}}


def serialize_tool(tool: Any) -> dict:
	"""One tool (a `Tool`, a dict definition or any object with name/description/parameters)."""
	get = tool.get if isinstance(tool, dict) else lambda key, default=None: getattr(tool, key, default)
	if isinstance(tool, dict) and tool.get("type") == "function" and isinstance(tool.get("function"), dict):
		return serialize_tool(tool["function"])
	parameters = get("parameters") or get("params_json_schema")
	if not isinstance(parameters, dict) or parameters.get("type") != "object":
		parameters = dict(EMPTY_PARAMETERS)
	return {
		"type": "function",
		"function": {
			"name": get("name") or get("tool_name") or "",
			"description": get("description") or "",
			"parameters": parameters,
		},
	}


def serialize_tools(tools: list | None) -> list[dict]:
	"""Every tool with a name, in order, each name once (the first wins)."""
	out: list[dict] = []
	seen: set[str] = set()
	for tool in tools or []:
		schema = serialize_tool(tool)
		name = schema["function"]["name"]
		if name and name not in seen:
			seen.add(name)
			out.append(schema)
	return out
