"""The database indexes of Huf's busy tables, added on install and after every migrate (`add_indexes`).

Frappe indexes a Link field only when it says `search_index`, so without these every run read its
conversation's messages and queue by scanning the whole Agent Message and Agent Run tables: on a bench
site with 9,000 messages, the message numbering's `max(conversation_index)` took 3 ms and the queue's
look-up 2 ms, each several times per run, growing with the site. Each entry is the columns of one index,
in the order the queries filter and sort by them.
"""

import frappe

INDEXES: dict[str, list[list[str]]] = {
	# the history, the message numbering (max of conversation_index), a run's messages
	"Agent Message": [["conversation", "conversation_index"], ["agent_run"]],
	# the conversation's queue and next sequence; budgets' spend by agent or user and period; recovery
	# (status); a flow's and a parent run's runs
	"Agent Run": [
		["conversation", "sequence"],
		["agent", "creation"],
		["user", "creation"],
		["status"],
		["flow_run"],
		["parent_run"],
	],
	# get-or-create by channel and external id (session_id); a user's conversation list
	"Agent Conversation": [["session_id"], ["user", "modified"]],
	"Agent Tool Call": [["agent_run"], ["conversation"]],
	"Agent Context Artifact": [["conversation"]],
	"Agent Tool Approval": [["agent_run"], ["status"]],
	"Agent Run Feedback": [["agent_message"]],
	"Flow Run": [["flow_id"], ["status"]],
	"Knowledge Input": [["knowledge_source"]],
}


def add_indexes() -> None:
	"""Add every missing index of `INDEXES` (existing ones are left as they are)."""
	for doctype, indexes in INDEXES.items():
		for columns in indexes:
			frappe.db.add_index(doctype, columns)


def index_name(columns: list[str]) -> str:
	"""The name Frappe gives the index of `columns` (`frappe.db.add_index`)."""
	return "_".join(columns) + "_index"
