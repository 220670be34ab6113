"""Flow Definitions for the canvas: read, save (validated, version bumped), list, duplicate, delete,
export and import. The caller (huf.ai.flow_api) has checked access (huf.ai.flows.access).

A definition is checked with the server's own rules (`huf.huf.flow_schema.flow_errors`) before it is
stored; an invalid one is refused with `InvalidFlowError` listing every problem, one per node or edge.
The webhook key is never returned or copied: a new flow gets its own, shown once to its creator.
"""

from __future__ import annotations

import json
from typing import Any

import frappe
from frappe import _

from huf.ai.flows.nodes import config_problems
from huf.huf.engine_owned import engine_write
from huf.huf.flow_schema import flow_errors

FLOW = "Flow Definition"
EXPORT_FORMAT = "huf.flow"
FIELDS = (
	"flow_id",
	"flow_name",
	"description",
	"status",
	"category",
	"version",
	"schema_version",
	"is_system",
	"run_as",
	"updated_by",
	"updated_at",
	"modified",
)
LIST_FIELDS = [
	"flow_id",
	"flow_name",
	"description",
	"status",
	"category",
	"version",
	"is_system",
	"updated_at",
	"modified",
]
MAX_LISTED = 500


class InvalidFlowError(frappe.ValidationError):
	"""A flow definition breaks the server's rules (the message lists each problem)."""


def parse_definition(value: Any) -> dict:
	"""`value` (a dict or JSON text) as a definition dict."""
	if isinstance(value, str):
		try:
			value = json.loads(value)
		except ValueError as e:
			frappe.throw(_("The definition is not valid JSON: {0}").format(e), InvalidFlowError)
	if not isinstance(value, dict):
		frappe.throw(_("The definition must be a JSON object with nodes and edges."), InvalidFlowError)
	return value


def check_definition(definition: dict, flow_id: str) -> None:
	"""Refuse `definition` with every problem listed (each names its node or edge)."""
	errors = flow_errors(definition, flow_id) + [p["message"] for p in config_problems(definition)]
	if errors:
		frappe.throw(errors, InvalidFlowError, title=_("Invalid Flow"), as_list=True)


def describe(flow: Any) -> dict:
	"""What the canvas reads of a flow: its fields and its definition (never the webhook key)."""
	out = {field: flow.get(field) for field in FIELDS}
	out["definition"] = flow.get_definition()
	return out


def save(
	flow_id: str,
	definition: dict,
	flow_name: str | None = None,
	status: str | None = None,
	description: str | None = None,
	category: str | None = None,
) -> dict:
	"""Create or update the flow `flow_id` with `definition`; the new flow's webhook key is shown once."""
	definition.setdefault("id", flow_id)
	check_definition(definition, flow_id)
	values = {"flow_name": flow_name, "status": status, "description": description, "category": category}
	values = {key: value for key, value in values.items() if value is not None}
	is_new = not frappe.db.exists(FLOW, flow_id)
	if is_new:
		flow = frappe.get_doc({"doctype": FLOW, "flow_id": flow_id, "flow_name": flow_id, **values})
	else:
		flow = frappe.get_doc(FLOW, flow_id)
		flow.update(values)
	flow.definition_json = json.dumps(definition)
	if is_new:
		flow.insert()
	else:
		flow.save()
	out = describe(flow)
	if is_new:
		out["webhook_key"] = flow.get_password("webhook_key")
	return out


def create(flow_id: str, flow_name: str, description: str | None = None, category: str | None = None) -> dict:
	"""A new Draft flow `flow_id` without steps (its webhook key shown once); a taken id is refused (409)."""
	if frappe.db.exists(FLOW, flow_id):
		frappe.throw(
			_("A flow with the id {0} exists already. Choose another id.").format(frappe.bold(flow_id)),
			frappe.DuplicateEntryError,
		)
	return save(flow_id, {"id": flow_id, "nodes": [], "edges": []}, flow_name, "Draft", description, category)


def list_flows(search: str | None = None, category: str | None = None, status: str | None = None) -> list:
	"""The flows the session user may read, newest change first; `search` looks in id, name and description."""
	filters = {}
	if category:
		filters["category"] = category
	if status:
		filters["status"] = status
	or_filters = None
	if search and search.strip():
		like = f"%{search.strip()}%"
		or_filters = [[FLOW, field, "like", like] for field in ("flow_id", "flow_name", "description")]
	return frappe.get_list(
		FLOW,
		fields=LIST_FIELDS,
		filters=filters,
		or_filters=or_filters,
		order_by="modified desc",
		limit_page_length=MAX_LISTED,
	)


def unique_flow_id(base: str) -> str:
	"""`base`, or `base-2`, `base-3`... whichever no flow has yet."""
	base = base[:130]
	for number in range(1, 100):
		candidate = base if number == 1 else f"{base}-{number}"
		if not frappe.db.exists(FLOW, candidate):
			return candidate
	return f"{base}-{frappe.generate_hash(length=8)}"


def create_copy(source: dict, flow_id: str, flow_name: str) -> Any:
	"""A new Draft flow `flow_id` from `source` (the fields of an export): no Run As, key or trigger state."""
	definition = {**source["definition"], "id": flow_id}
	check_definition(definition, flow_id)
	flow = frappe.get_doc(
		{
			"doctype": FLOW,
			"flow_id": flow_id,
			"flow_name": flow_name,
			"description": source.get("description"),
			"category": source.get("category"),
			"status": "Draft",
			"definition_json": json.dumps(definition),
		}
	)
	return flow.insert()


def duplicate(flow: Any, new_flow_id: str | None = None) -> dict:
	"""A Draft copy of `flow` under `new_flow_id` (default: `<flow_id>-copy`, made unique)."""
	if new_flow_id and frappe.db.exists(FLOW, new_flow_id):
		frappe.throw(
			_("A flow with the id {0} exists already.").format(frappe.bold(new_flow_id)),
			frappe.DuplicateEntryError,
		)
	flow_id = new_flow_id or unique_flow_id(f"{flow.flow_id}-copy")
	copy = create_copy(export(flow), flow_id, _("{0} (copy)").format(flow.flow_name))
	return describe(copy)


def delete(flow: Any) -> None:
	"""Delete `flow`; one with runs is refused (archive it, or delete its runs first)."""
	runs = frappe.db.count("Flow Run", {"flow_definition": flow.name})
	if runs:
		frappe.throw(
			_("Flow {0} has {1} runs: archive it instead, or delete its runs first.").format(
				frappe.bold(flow.name), runs
			),
			frappe.LinkExistsError,
		)
	frappe.delete_doc(FLOW, flow.name)


def export(flow: Any) -> dict:
	"""A portable copy of `flow` for import elsewhere (no Run As, owner, webhook key or trigger state)."""
	return {
		"format": EXPORT_FORMAT,
		"flow_id": flow.flow_id,
		"flow_name": flow.flow_name,
		"description": flow.description,
		"category": flow.category,
		"version": flow.version,
		"schema_version": flow.schema_version,
		"definition": flow.get_definition(),
	}


def import_flow(data: Any, flow_name: str | None = None) -> dict:
	"""A new Draft flow from an export (or a bare definition); its id is made unique when taken."""
	data = parse_definition(data)
	source = data if isinstance(data.get("definition"), dict | str) else {"definition": data}
	source = {**source, "definition": parse_definition(source["definition"])}
	wanted = source.get("flow_id") or source["definition"].get("id")
	if not isinstance(wanted, str) or not wanted.strip():
		frappe.throw(_("The imported flow has no id (flow_id or definition id)."), InvalidFlowError)
	flow_id = unique_flow_id(wanted.strip())
	name = flow_name or source.get("flow_name") or source["definition"].get("name") or flow_id
	return describe(create_copy(source, flow_id, str(name)))


def reset_webhook_key(flow: Any) -> dict:
	"""Give `flow` a new webhook key and return it once; only the user its triggered runs act as (Run As,
	else the owner) or a System Manager may, since the key starts runs as that user."""
	acting = flow.run_as or flow.owner
	if frappe.session.user != acting and "System Manager" not in frappe.get_roles():
		frappe.throw(
			_(
				"The webhook of flow {0} starts runs as {1}: only {1} or a System Manager may reset its key."
			).format(flow.name, acting),
			frappe.PermissionError,
		)
	key = frappe.generate_hash(length=40)
	flow.webhook_key = key
	engine_write(flow).save()  # a read-only field: only this function writes it
	return {"flow_id": flow.name, "webhook_key": key}
