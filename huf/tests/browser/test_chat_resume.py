"""A chat answer that survives a lost connection, in a real headless Chromium against the real server and the scripted LLM.

Runs `chat_resume.e2e.mjs`: while the answer streams in, the page goes offline (its open stream breaks) and
comes back; the chat reads the run on from the last event it got (`GET /huf/stream/<agent>?run=` with
`Last-Event-ID`), and the answer completes once, with no piece shown twice, from the one run the server
kept going.
"""

from __future__ import annotations

from pathlib import Path

import frappe

from huf.tests.support.browser import BrowserTestCase, make_chat_e2e_agent, remove_chat_e2e_records

USER = "e2e-resume-user@example.com"
ANSWER = " ".join(f"word{i:02d}" for i in range(60))


class TestChatResumeInBrowser(BrowserTestCase):
	script = Path(__file__).with_name("chat_resume.e2e.mjs")

	@classmethod
	def setUpClass(cls):
		from huf.tests.support.llm_server import Reply, ScriptedLLM

		super().setUpClass()
		cls.suffix = frappe.generate_hash(length=8)
		cls.addClassCleanup(remove_chat_e2e_records, "Resume", cls.suffix, USER)
		cls.user_login = cls.browser_user(USER, "Huf User")
		cls.llm = cls.enterClassContext(ScriptedLLM())
		cls.llm.queue(Reply(content=ANSWER, chunk_size=8, delay=0.08))  # about 6 s of deltas
		cls.agent = make_chat_e2e_agent("Resume", cls.suffix, cls.llm.api_base, allow_chat=1)
		cls.serve()

	def test_the_answer_completes_once_after_the_connection_drops_mid_answer(self):
		result = self.run_browser(user=self.user_login, agent=self.agent, answer=ANSWER)

		self.assertTrue(result["text_before_drop"], result)
		self.assertLess(len(result["text_before_drop"]), len(ANSWER))
		# the chat read the run on from where it was, with the id of the last event it had
		self.assertGreaterEqual(len(result["resumes"]), 1, result)
		self.assertTrue(all(int(r["last_event_id"]) > 0 for r in result["resumes"]), result["resumes"])
		# never a piece twice: every text the live answer showed was a start of the answer
		self.assertEqual(result["not_a_prefix"], [])
		self.assertEqual(result["final_answer"], ANSWER)
		self.assertEqual(result["answers_shown"], 1)
		self.assertEqual(result["failed"], 0)
		self.assertEqual(result["console_errors"], [])

		frappe.db.rollback()
		runs = frappe.get_all("Agent Run", filters={"agent": self.agent}, fields=["status", "response"])
		self.assertEqual([(r.status, r.response) for r in runs], [("Success", ANSWER)])
		self.assertEqual(len(self.llm.chat_requests), 1)
