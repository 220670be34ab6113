"""The benchmark records on a connected site, on either runtime: run in process (Frappe Lite) or by a
bench's own Python (`RealBench.prepare`, benchmarks/real_bench.py). Only public Frappe APIs."""

from __future__ import annotations

import json
import sys

PROVIDER = "Bench LLM"
MODEL = "bench-model"
TOOL = "bench_ping"
INSTRUCTIONS = "You are a benchmark agent."
USER = "huf-bench@example.com"  # who runs the benchmark's requests (a Huf Manager, not Administrator)


def _upsert(doctype: str, name: str, values: dict) -> None:
	import frappe

	if frappe.db.exists(doctype, name):
		doc = frappe.get_doc(doctype, name)
		doc.update(values)
		doc.save()
	else:
		frappe.get_doc({"doctype": doctype, **values}).insert()


def prepare(api_base: str, agents: list[str], tool_agents: list[str], flows: dict | None = None) -> dict:
	"""Provider, model, agents (`tool_agents` with the `frappe.ping` tool), flows (`{flow_id: definition}`)
	and the benchmark's user (`USER`, Huf Manager) with a new API token and password; commits and returns
	{"token": the Authorization header value, "user": USER, "password": the password}."""
	import frappe
	from frappe.core.doctype.user.user import generate_keys
	from frappe.utils.password import update_password

	frappe.set_user("Administrator")
	_upsert("AI Provider", PROVIDER, {"provider_name": PROVIDER, "api_key": "sk-bench", "api_base": api_base})
	_upsert("AI Model", MODEL, {"model_name": MODEL, "provider": PROVIDER})
	if tool_agents:
		_upsert(
			"Agent Tool Function",
			TOOL,
			{
				"tool_name": TOOL,
				"types": "Custom Function",
				"tool_type": "Custom",
				"function_path": "frappe.ping",
				"description": "Answers pong",
			},
		)
	for name in [*agents, *tool_agents]:
		values = {
			"agent_name": name,
			"provider": PROVIDER,
			"model": MODEL,
			"instructions": INSTRUCTIONS,
			"context_strategy": "None",
		}
		if name in tool_agents:
			values["agent_tool"] = [{"tool": TOOL}]
		_upsert("Agent", name, values)
	for flow_id, definition in (flows or {}).items():
		existing = frappe.db.get_value("Flow Definition", {"flow_id": flow_id})
		values = {
			"flow_id": flow_id,
			"flow_name": flow_id,
			"status": "Active",
			"definition_json": json.dumps(definition),
		}
		if existing:
			_upsert("Flow Definition", existing, values)
		else:
			frappe.get_doc({"doctype": "Flow Definition", **values}).insert()
	if not frappe.db.exists("User", USER):
		user = frappe.get_doc(
			{"doctype": "User", "email": USER, "first_name": "Huf Bench", "send_welcome_email": 0}
		)
		user.insert(ignore_permissions=True)
		user.add_roles("Huf Manager")
	password = frappe.generate_hash(length=24)
	update_password(USER, password)
	secret = generate_keys(USER)["api_secret"]
	key = frappe.db.get_value("User", USER, "api_key")
	frappe.db.commit()
	return {"token": f"token {key}:{secret}", "user": USER, "password": password}


def main() -> None:
	"""`python -m benchmarks.site_setup SITE` in a bench's sites folder: JSON arguments on stdin, SETUP=<json> out."""
	import frappe

	args = json.load(sys.stdin)
	frappe.init(sys.argv[1], sites_path=".")
	frappe.connect()
	try:
		print("SETUP=" + json.dumps(prepare(**args)))
	finally:
		frappe.destroy()


if __name__ == "__main__":
	main()
