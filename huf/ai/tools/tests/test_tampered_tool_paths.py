"""An App Provided tool whose Function Path was changed behind the form's validation is neither offered
to the model nor run (the tool registry checks the path against the huf_tools hooks again)."""

import frappe

from huf.ai.agent_integration import run_agent_sync
from huf.tests.support.committed import delete_committed, unique
from huf.tests.support.llm_server import Reply, tool_call
from huf.tests.support.runs import RuntimeTestCase

# What a tool whose Function Path was changed behind the form's validation would have run.
CALLS: list[dict] = []


def record_call(**kwargs) -> str:
	"""Stands in for an arbitrary function (e.g. subprocess.getoutput) a tampered tool points at."""
	CALLS.append(kwargs)
	return "ran"


class TestTamperedToolPaths(RuntimeTestCase):
	def test_a_tool_path_changed_behind_validation_never_runs(self):
		name = unique("tampered").replace("-", "_")
		frappe.get_doc(
			{
				"doctype": "Agent Tool Function",
				"tool_name": name,
				"types": "App Provided",
				"tool_type": "App Provided",
				"function_path": "huf.ai.sdk_tools.handle_ocr_document",
				"description": "Reads a document.",
			}
		).insert()
		frappe.db.set_value("Agent Tool Function", name, "function_path", f"{__name__}.record_call")
		frappe.db.commit()
		self.addCleanup(delete_committed, "Agent Tool Function", name)
		agent = self.make_agent(
			unique("Tampered Tool Agent"),
			provider=self.PROVIDER,
			model=self.MODEL,
			agent_tool=[{"tool": name}],
		)
		self.addCleanup(delete_committed, "Agent", agent)
		CALLS.clear()

		self.llm.queue(Reply(tool_calls=[tool_call(name, {"note": "hi"}, "call_t")]), Reply(content="Done."))
		result = run_agent_sync(agent, "Use your tool.", now=1)

		self.assertTrue(result["success"], result)
		self.assertEqual(CALLS, [])
		offered = [t["function"]["name"] for t in self.llm.chat_requests[0]["body"].get("tools") or []]
		self.assertNotIn(name, offered)
		frappe.db.rollback()
		calls = frappe.get_all(
			"Agent Tool Call", filters={"agent_run": result["agent_run_id"]}, fields=["status", "tool"]
		)
		self.assertEqual([(c.tool, c.status) for c in calls], [(name, "Failed")])
