"""A guest's run status (huf.ai.live_events RUN) goes only to its conversation's room, never to all users."""

from unittest.mock import patch

import frappe

from huf.ai.agent_integration import run_agent_sync
from huf.tests.support.runs import RuntimeTestCase


class TestRunStatusEvents(RuntimeTestCase):
	def test_a_guest_runs_status_goes_only_to_its_conversation_room(self):
		agent = self.make_agent("Guest Status Agent", allow_guest=1)
		self.llm.queue("Hello guest.")
		with patch.object(frappe, "publish_realtime", wraps=frappe.publish_realtime) as publish:
			with self.set_user("Guest"):
				result = run_agent_sync(agent, "hi", now=1)
		targets = [
			{key: call.kwargs.get(key) for key in ("user", "doctype", "docname")}
			for call in publish.call_args_list
			if call.args[:1] == ("agent_run_status",)
			and call.args[1]["agent_run_id"] == result["agent_run_id"]
		]
		self.assertEqual(
			targets,
			[{"user": None, "doctype": "Agent Conversation", "docname": result["conversation_id"]}] * 3,
		)
