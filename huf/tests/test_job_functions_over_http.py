"""The functions Huf runs as scheduled or background jobs cannot be called over HTTP."""

import frappe

from huf.tests.support.role_sessions import ALICE, BOB, RoleSessionsTestCase


class TestMaintenanceFunctions(RoleSessionsTestCase):
	# Background jobs besides the scheduler's (summary, title, tool sync, trigger runs).
	JOBS = (
		"huf.ai.conversation.strategies.apply_context_strategy",
		"huf.ai.conversation.title.maybe_autoname",
		"huf.ai.tools.app_sync.sync_tools",
		"huf.ai.triggers.doc_events.run_agent_for_doc",
	)

	def test_scheduler_and_background_jobs_cannot_be_called_over_http(self):
		with self.set_user(BOB):
			conversation = frappe.get_doc(
				{"doctype": "Agent Conversation", "agent": self.AGENT, "title": "Bob's own title"}
			).insert()
		frappe.db.commit()
		jobs = set(self.JOBS)
		for entry in frappe.get_hooks("scheduler_events", app_name="huf").values():
			for paths in entry.values() if isinstance(entry, dict) else [entry]:
				jobs.update([paths] if isinstance(paths, str) else paths)
		self.assertIn("huf.ai.mcp_client.auto_sync_mcp_server_tools", jobs)
		alice = self.session(ALICE)
		answers = {}
		for job in sorted(jobs):
			response = alice.post(
				f"/api/method/{job}",
				json={
					"conversation": conversation.name,
					"conversation_name": conversation.name,
					"text": "Hijacked",
				},
			)
			answers[job] = response.status_code
		self.assertEqual({job for job, status in answers.items() if status != 403}, set(), answers)
		frappe.db.rollback()
		self.assertEqual(
			frappe.db.get_value("Agent Conversation", conversation.name, "title"), "Bob's own title"
		)
