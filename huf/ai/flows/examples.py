"""The example flows a new site starts with (the spec's FlowService examples: a web form, an email
automation, an empty flow to start from), seeded by `huf.install` on install and after every migrate.

Each example is seeded once: its Flow ID is recorded in the site's global default
`huf_example_flows_seeded` when it is created (or found already there), and never looked at again.
So a user's edits stay, and an example a user deleted does not come back on migrate. Examples are
Draft, owned by Administrator, category "Example": none runs until someone picks its agent (where it
has one) and makes it Active.
"""

from __future__ import annotations

import json

import frappe

SEEDED_KEY = "huf_example_flows_seeded"
CATEGORY = "Example"


def _node(node_id: str, node_type: str, x: int, y: int, **data) -> dict:
	return {"id": node_id, "type": node_type, "position": {"x": x, "y": y}, "data": data}


def _edge(source: str, target: str, edge_type: str = "always", **fields) -> dict:
	return {"id": f"{source}-{target}", "source": source, "target": target, "type": edge_type, **fields}


WEB_FORM = {
	"flow_id": "example-web-form",
	"flow_name": "Example: Web form submission",
	"description": (
		"A web form posts its fields to the flow's webhook; the flow tidies them into a contact and"
		" answers with a thank-you, or says which field is missing."
	),
	"nodes": [
		_node("form", "trigger.webhook", 0, 0),
		_node("has_email", "condition", 280, 0, condition='"email" in payload and payload.email != ""'),
		_node(
			"contact",
			"transform",
			560,
			-80,
			operations=[
				{"op": "template", "to": "name", "template": "{{ payload.name }}"},
				{"op": "copy", "to": "email", "from": "payload.email"},
			],
		),
		_node(
			"thanks", "end", 840, -80, output="Thank you, {{ vars.name }}: we will write to {{ vars.email }}."
		),
		_node("missing", "end", 560, 80, output="The form has no email address."),
	],
	"edges": [
		_edge("form", "has_email"),
		_edge("has_email", "contact", "on_success"),
		_edge("has_email", "missing", "on_failure"),
		_edge("contact", "thanks", "on_success"),
	],
}

EMAIL_AUTOMATION = {
	"flow_id": "example-email-automation",
	"flow_name": "Example: Email automation",
	"description": (
		"An app posts an incoming email (sender, subject, body) to the webhook; an agent drafts the reply"
		" and a Huf Manager approves it before the flow hands it back. Pick the agent in the Draft step."
	),
	"nodes": [
		_node("email", "trigger.webhook", 0, 0),
		_node(
			"draft",
			"agent.run",
			280,
			0,
			agent="",
			prompt=(
				"Draft a short, polite reply to this email from {{ payload.sender }}.\n"
				"Subject: {{ payload.subject }}\n\n{{ payload.body }}"
			),
			conversation="new",
		),
		_node(
			"review",
			"human.approval",
			560,
			0,
			approvers={"users": [], "roles": ["Huf Manager"]},
			message="Send this reply to {{ payload.sender }}?\n\n{{ nodes.draft.output.response }}",
			timeout_minutes=1440,
		),
		_node("send", "end", 840, -80, output="{{ nodes.draft.output.response }}"),
		_node("discard", "end", 840, 80, output="The draft was not approved."),
	],
	"edges": [
		_edge("email", "draft"),
		_edge("draft", "review", "on_success"),
		_edge("review", "send", meta={"outcome": "approved"}),
		_edge("review", "discard", meta={"outcome": "rejected"}),
	],
}

UNTITLED = {
	"flow_id": "example-untitled",
	"flow_name": "Untitled flow",
	"description": "An empty flow to start from: add a trigger and steps in the canvas.",
	"nodes": [],
	"edges": [],
}

EXAMPLES = (WEB_FORM, EMAIL_AUTOMATION, UNTITLED)


def definition_of(example: dict) -> dict:
	"""The definition_json of `example` (what the canvas saves)."""
	definition = {
		"id": example["flow_id"],
		"schema_version": 1,
		"nodes": example["nodes"],
		"edges": example["edges"],
	}
	if example["nodes"]:
		definition["entry_node_id"] = example["nodes"][0]["id"]
	return definition


def seeded() -> list[str]:
	"""The Flow IDs of the examples this site was given already."""
	value = frappe.db.get_global(SEEDED_KEY) or ""
	return [flow_id for flow_id in value.split(",") if flow_id]


def seed_examples() -> list[str]:
	"""Create the examples this site was never given; returns the Flow IDs created."""
	done = seeded()
	created = []
	for example in EXAMPLES:
		flow_id = example["flow_id"]
		if flow_id in done:
			continue
		if not frappe.db.exists("Flow Definition", flow_id):
			doc = frappe.get_doc(
				{
					"doctype": "Flow Definition",
					"flow_id": flow_id,
					"flow_name": example["flow_name"],
					"description": example["description"],
					"category": CATEGORY,
					"status": "Draft",
					"definition_json": json.dumps(definition_of(example)),
				}
			)
			doc.insert(ignore_permissions=True)
			created.append(flow_id)
		done.append(flow_id)
	frappe.db.set_global(SEEDED_KEY, ",".join(done))
	return created
