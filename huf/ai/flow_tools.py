"""The agents' flow tools (the spec's module): run_flow, get_flow_run, resume_flow_run, approve_flow_run.

They are defined once, among Huf's standard tools (`huf.huf.builtin_tools`, tool type "Flow"), which
Huf's `huf_tools` hook registers and install seeds as Agent Tool Functions; this module names that
subset. Each calls a `handle_*` function of `huf.ai.flow_api`, which runs as the agent run's user with
the same permission and approver checks as its REST twin.
"""

from huf.huf.builtin_tools import get_builtin_tools

FLOW_TOOL_TYPE = "Flow"


def get_flow_tools() -> list[dict]:
	"""The definitions of the flow tools (copies, safe to modify)."""
	return [tool for tool in get_builtin_tools() if tool.get("tool_type") == FLOW_TOOL_TYPE]
