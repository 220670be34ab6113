"""ToolSpec: what the executor needs of an Agent Tool Function, snapshotted when a run loads its tools."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from frappe.utils import cint

from huf.huf.tool_schema import CLIENT_SIDE, UPSTREAM_CLIENT_FUNCTION, build_parameters


@dataclass(frozen=True)
class ToolSpec:
	"""What the executor needs of an Agent Tool Function (a snapshot taken when the run loads its tools)."""

	name: str
	types: str
	description: str = ""
	parameters: dict = field(default_factory=lambda: {"type": "object", "properties": {}})
	reference_doctype: str | None = None
	function_path: str | None = None
	pass_parameters_as_json: bool = False
	provider_app: str | None = None
	agent: str | None = None
	base_url: str | None = None
	record: str | None = None  # the Agent Tool Function
	requires_approval: bool = False
	client_function: str | None = None  # set: the browser of the run's user answers each call

	@classmethod
	def from_doc(cls, doc: Any) -> ToolSpec:
		return cls(
			name=doc.tool_name or doc.name,
			types=doc.types,
			description=doc.description or "",
			parameters=build_parameters(doc),
			reference_doctype=doc.get("reference_doctype"),
			function_path=(doc.get("function_path") or "").strip() or None,
			pass_parameters_as_json=bool(doc.get("pass_parameters_as_json")),
			provider_app=doc.get("provider_app"),
			agent=doc.get("agent"),
			base_url=doc.get("base_url"),
			record=doc.name,
			requires_approval=bool(cint(doc.get("requires_approval"))),
			client_function=client_function(doc),
		)


def client_function(doc: Any) -> str | None:
	"""The browser function a client-side tool calls: its Function Path, else its name ("" for upstream's
	`client_side_function` path: the call's own `function_name` argument says which); None for other tools."""
	path = (doc.get("function_path") or "").strip()
	if doc.types == CLIENT_SIDE:
		return path or doc.tool_name or doc.name
	if doc.types == "Custom Function" and path == UPSTREAM_CLIENT_FUNCTION:
		return ""
	return None
