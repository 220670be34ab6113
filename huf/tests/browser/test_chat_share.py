"""Chat extras in a real headless Chromium, against the real server and the scripted LLM.

Runs `chat_share.e2e.mjs`: the owner of a conversation opens one answer at /huf/view/<message> (rendered
Markdown, agent, conversation title, "Open conversation"), copies an answer's link in the chat, records a
voice message with Chromium's fake microphone (transcribed by the real upload endpoint into the input,
not sent), and sends a file (the bubble shows its name, the model gets its text); another Huf User
opening the same link sees only "not found or not allowed", and is told plainly when the browser refuses
the microphone.
"""

from __future__ import annotations

import json
import tempfile
from pathlib import Path

import frappe

from huf.tests.support.browser import BrowserTestCase, make_chat_e2e_agent, remove_chat_e2e_records

OWNER = "e2e-share-owner@example.com"
OTHER = "e2e-share-other@example.com"
NOTE = "The launch code word is PELICAN-4417."
ANSWER = "Here is **the plan**: ship on Friday."


def remove_records(suffix: str) -> None:
	remove_chat_e2e_records("Share", suffix, OWNER, OTHER)


class TestChatShareInBrowser(BrowserTestCase):
	script = Path(__file__).with_name("chat_share.e2e.mjs")

	@classmethod
	def setUpClass(cls):
		from huf.tests.support.llm_server import ScriptedLLM

		super().setUpClass()
		cls.suffix = cls.own_records(remove_records)
		cls.owner_login = cls.browser_user(OWNER, "Huf User")
		cls.other_login = cls.browser_user(OTHER, "Huf User")
		cls.llm = cls.enterClassContext(ScriptedLLM())
		cls.llm.queue("The note says the code word is PELICAN-4417.")
		cls.agent = make_chat_e2e_agent("Share", cls.suffix, cls.llm.api_base, allow_chat=1)
		cls.conversation, cls.message = cls.owned_answer()
		cls.note = Path(tempfile.mkdtemp()) / "launch-note.txt"
		cls.note.write_text(NOTE)
		cls.serve()

	@classmethod
	def owned_answer(cls) -> tuple[str, str]:
		"""A conversation of OWNER with a question and a Markdown answer; (conversation, answer message)."""
		conversation = frappe.get_doc(
			{
				"doctype": "Agent Conversation",
				"agent": cls.agent,
				"user": OWNER,
				"title": f"Launch plan {cls.suffix}",
				"channel": "Chat",
			}
		).insert(ignore_permissions=True)
		names = []
		for index, (role, content) in enumerate((("user", "What is the plan?"), ("agent", ANSWER)), 1):
			names.append(
				frappe.get_doc(
					{
						"doctype": "Agent Message",
						"conversation": conversation.name,
						"agent": cls.agent,
						"user": OWNER,
						"role": role,
						"kind": "Message",
						"content": content,
						"conversation_index": index,
					}
				)
				.insert(ignore_permissions=True)
				.name
			)
		return conversation.name, names[1]

	def test_share_view_copy_link_voice_and_file(self):
		result = self.run_browser(
			owner=self.owner_login,
			other=self.other_login,
			message=self.message,
			agent=self.agent,
			file_path=str(self.note),
		)

		# the owner sees the answer rendered, with its agent and conversation title
		self.assertEqual(result["owner_text"], "Here is the plan: ship on Friday.")
		self.assertEqual(result["owner_bold"], "the plan")
		self.assertIn(self.agent, result["owner_header"])
		self.assertIn(f"Launch plan {self.suffix}", result["owner_header"])
		self.assertTrue(result["chat_url"].endswith(f"/{self.conversation}"), result["chat_url"])
		# "Copy link" copies the shareable view of that answer
		self.assertEqual(result["copied"], f"{self.base_url}/huf/view/{self.message}")

		# the recording went to the real transcription endpoint; its text waits in the input, unsent
		self.assertEqual(result["transcript"], self.llm.transcript)
		self.assertTrue(any(r["path"].endswith("/audio/transcriptions") for r in self.llm.requests))
		self.assertEqual(result["messages_before_send"], 1)

		# the file is shown by its name, never its path; the model got the file's text
		self.assertEqual(result["bubble_attachment"], "launch-note.txt")
		self.assertEqual(result["bubble_attachment_kind"], "Text/Markdown")
		self.assertNotIn("/private/files", result["bubble_text"])
		self.assertIn("What does the attached note say?", result["bubble_text"])
		last = self.llm.chat_requests[-1]
		self.assertIn("PELICAN-4417", json.dumps(last["body"]["messages"]))

		# another Huf User gets nothing of the message
		self.assertEqual(result["other_article"], 0)
		self.assertEqual(result["other_open_links"], 0)
		self.assertNotIn("ship on Friday", result["other_page"])
		# a microphone the browser refuses is explained, nothing is uploaded
		self.assertIn("The browser refused the microphone", result["refused_mic"])
		self.assertEqual(
			len([r for r in self.llm.requests if r["path"].endswith("/audio/transcriptions")]), 1
		)
		self.assertEqual(result["console_errors"], [])
