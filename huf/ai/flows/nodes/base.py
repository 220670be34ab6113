"""What a node executor gets (`NodeCall`) and returns (`NodeResult`).

An executor is `execute(call: NodeCall) -> NodeResult`. It runs as the flow run's acting user, may
raise (a `frappe.ValidationError` with a readable message is the node's failure: the engine records
it and follows an `on_failure` edge, or fails the run), and never commits: the engine persists the
run after every node.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

SUCCESS, FAILURE, WAITING = "success", "failure", "waiting"
# How a node type picks the next node (a node module's ROUTING; see huf/ai/flows/nodes/__init__.py).
EDGES, SELF, OUTCOME = "edges", "self", "outcome"


@dataclass
class NodeResult:
	status: str = SUCCESS  # success | failure | waiting
	output: Any = None  # kept as context["nodes"][id]["output"] and context["last"]
	error: str | None = None
	next_node_id: str | None = None  # explicit routing: loop body/done, router.llm, the orchestrator
	outcome: str | None = None  # human.approval: approved | rejected
	waiting: dict | None = None  # status waiting: {"kind": "approval" | "user", ...}, kept on the Flow Run
	agent_run: str | None = None  # the Agent Run this node produced (Flow Run.last_agent_run)
	vars: dict = field(default_factory=dict)  # merged into context["vars"]
	state: dict = field(
		default_factory=dict
	)  # a node's own bookkeeping (loop positions), kept in context["state"][node id]


@dataclass
class NodeCall:
	run: Any  # the Flow Run document
	node: dict  # the node as written in the definition
	config: dict  # its settings (graph.node_config)
	context: dict  # the flow context (context.py); read it, return changes in the NodeResult
	graph: Any  # the FlowGraph
	user: str  # the user the flow run acts as
	resume: dict | None = None  # when a waiting node is resumed: the decision or input

	@property
	def node_id(self) -> str:
		return self.node["id"]

	@property
	def label(self) -> str:
		return f"node {self.node_id}"
