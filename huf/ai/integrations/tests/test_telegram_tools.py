"""The telegram_send_message tool against a scripted Telegram Bot API."""

import frappe

from huf.ai.integrations.services.telegram import telegram_send_message
from huf.tests.support.http_service import reply
from huf.tests.support.service_tools import ServiceToolTestCase

BOT_TOKEN = "123456789:AAH-telegram-test-secret"


def sent(message_id: int) -> dict:
	return {"ok": True, "result": {"message_id": message_id, "chat": {"id": 4242}, "text": "..."}}


class TestTelegramTools(ServiceToolTestCase):
	SERVICE = "telegram"
	CREDENTIALS = {"bot_token": BOT_TOKEN}

	def test_send_message_posts_to_the_bots_send_message(self):
		self.api.queue(sent(17))
		result = telegram_send_message(chat_id=4242, text="<b>Build</b> green", parse_mode="HTML")
		self.assertEqual(result, {"sent": True, "chat_id": "4242", "message_ids": [17]})
		[request] = self.api.requests
		self.assertEqual((request["method"], request["path"]), ("POST", f"/bot{BOT_TOKEN}/sendMessage"))
		self.assertEqual(
			request["json"], {"chat_id": "4242", "text": "<b>Build</b> green", "parse_mode": "HTML"}
		)
		self.assertNotIn("authorization", request["headers"])
		self.assert_no_secret(result)

	def test_long_text_is_split_at_4096_characters(self):
		self.api.queue(sent(1), sent(2))
		text = "a" * 5000
		result = telegram_send_message(chat_id="@news", text=text)
		self.assertEqual(result["message_ids"], [1, 2])
		parts = [r["json"]["text"] for r in self.api.requests]
		self.assertEqual([len(p) for p in parts], [4096, 904])
		self.assertEqual("".join(parts), text)
		self.assertEqual({r["json"]["chat_id"] for r in self.api.requests}, {"@news"})

	def test_recipient_name_is_resolved_to_its_chat_id(self):
		settings = self.make_settings(
			is_default=0, recipients=[{"recipient_name": "Ops Group", "recipient_id": "-100200300"}]
		)
		self.api.queue(sent(5))
		telegram_send_message(chat_id="ops group", text="hi", settings=settings)
		self.assertEqual(self.api.requests[0]["json"]["chat_id"], "-100200300")

	def test_telegram_error_is_readable_and_hides_the_token(self):
		self.api.queue(
			reply({"ok": False, "error_code": 400, "description": "Bad Request: chat not found"}, status=400)
		)
		with self.assertRaises(frappe.ValidationError) as caught:
			telegram_send_message(chat_id=1, text="hi")
		self.assertIn("chat not found", str(caught.exception))
		self.assert_no_secret(str(caught.exception))

	def test_ok_false_with_200_is_readable(self):
		self.api.queue({"ok": False, "description": "Forbidden: bot was blocked by the user"})
		with self.assertRaises(frappe.ValidationError) as caught:
			telegram_send_message(chat_id=1, text="hi")
		self.assertIn("bot was blocked by the user", str(caught.exception))

	def test_unknown_parse_mode_is_refused(self):
		with self.assertRaises(frappe.ValidationError) as caught:
			telegram_send_message(chat_id=1, text="hi", parse_mode="BBCode")
		self.assertIn("parse_mode must be one of HTML, MarkdownV2, Markdown", str(caught.exception))
		self.assertEqual(self.api.requests, [])
