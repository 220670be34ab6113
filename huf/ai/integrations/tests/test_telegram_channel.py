"""Telegram channel: the webhook's secret token, an update answered through the agent, user mapping,
duplicates, long answers and registering the webhook."""

import frappe
import httpx

from huf.tests.support.channels import ChannelTestCase
from huf.tests.support.http_service import reply
from huf.tests.support.jobs import wait_until

ANN = "telegram-ann@example.com"
TOKEN = "7312:AAH-telegram-test-token"
SECRET = "tg-secret-Zx81kq"
UPSTREAM = "/api/method/huf.ai.tools.telegram_webhook.handle_update"


def update(update_id: int, text: str, user_id: int = 111, chat_id: int = 111) -> dict:
	return {
		"update_id": update_id,
		"message": {
			"message_id": update_id,
			"from": {"id": user_id, "is_bot": False, "first_name": "Ann"},
			"chat": {"id": chat_id, "type": "private"},
			"date": 1764800000,
			"text": text,
		},
	}


class TestTelegramChannel(ChannelTestCase):
	AGENT = "Telegram Channel Agent"
	PROVIDER = "Telegram Channel LLM"
	MODEL = "telegram-channel-model"
	SERVICE = "telegram"
	CREDENTIALS = {"bot_token": TOKEN}
	users = ((ANN, ("Huf User",)),)

	def setUp(self) -> None:
		super().setUp()
		self.settings = self.make_settings(
			SECRET, recipients=[{"recipient_name": "Ann", "recipient_id": "111", "user": ANN}]
		)
		self.web = httpx.Client(base_url=self.base_url, timeout=60)
		self.addCleanup(self.web.close)

	def post(self, body: dict, secret: str | None = SECRET) -> httpx.Response:
		headers = {"X-Telegram-Bot-Api-Secret-Token": secret} if secret is not None else {}
		return self.web.post(UPSTREAM, json=body, headers=headers)

	def test_missing_wrong_or_unset_secret_is_refused(self):
		self.make_settings(None)  # a bot without a secret never accepts anything
		for secret in (None, "", "tg-secret-wrong", SECRET + "x"):
			response = self.post(update(1, "hello"), secret)
			self.assertEqual(response.status_code, 403, (secret, response.text))
		self.assertEqual(self.runs(), [])
		self.assertEqual(self.api.requests, [])

	def test_an_update_is_answered_in_the_chat_as_the_mapped_user(self):
		self.llm.queue("Hello Ann, how can I help?")
		response = self.post(update(501, "hi there"))
		self.assertEqual(response.status_code, 200, response.text)
		sent = self.wait_for_requests("/sendMessage")
		self.assertEqual(sent[0]["method"], "POST")
		self.assertEqual(sent[0]["path"], f"/bot{TOKEN}/sendMessage")
		self.assertEqual(sent[0]["json"], {"chat_id": "111", "text": "Hello Ann, how can I help?"})
		runs = self.runs()
		self.assertEqual([(run.user, run.status) for run in runs], [(ANN, "Success")])
		conversation = frappe.get_all(
			"Agent Conversation", filters={"agent": self.AGENT}, fields=["user", "external_id", "channel"]
		)
		self.assertEqual(
			[(c.user, c.external_id, c.channel) for c in conversation],
			[(ANN, f"{self.settings}:111", "telegram")],
		)
		self.assertEqual(self.llm.chat_requests[-1]["body"]["messages"][-1]["content"], "hi there")
		# Telegram delivers the same update again when it thinks the answer was slow: it runs once
		self.assertEqual(self.post(update(501, "hi there")).status_code, 200)
		self.llm.queue("second answer")
		self.assertEqual(self.post(update(502, "and again")).status_code, 200)
		self.wait_for_requests("/sendMessage", count=2)
		self.assertEqual(len(self.runs()), 2)
		frappe.db.commit()
		self.assertEqual(
			frappe.db.count("Agent Conversation", {"agent": self.AGENT}), 1, "one conversation per chat"
		)

	def test_a_long_answer_is_split_at_telegrams_limit(self):
		answer = " ".join(f"word{i}" for i in range(1200))  # about 8900 characters
		self.llm.queue(answer)
		self.assertEqual(self.post(update(601, "write a lot")).status_code, 200)
		sent = self.wait_for_requests("/sendMessage", count=3)
		texts = [request["json"]["text"] for request in sent]
		self.assertTrue(all(len(text) <= 4096 for text in texts), [len(text) for text in texts])
		self.assertEqual(" ".join(texts), answer)

	def test_an_unknown_sender_without_channel_user_is_refused_politely(self):
		self.assertEqual(self.post(update(701, "hello", user_id=999, chat_id=999)).status_code, 200)
		sent = self.wait_for_requests("/sendMessage")
		self.assertEqual(sent[0]["json"]["chat_id"], "999")
		self.assertIn("999", sent[0]["json"]["text"])
		self.assertEqual(self.runs(), [])

	def test_the_channel_user_answers_unknown_senders_but_never_administrator(self):
		frappe.db.set_value("Integration Settings", self.settings, "channel_user", ANN)
		frappe.db.commit()
		self.llm.queue("hi stranger")
		self.assertEqual(self.post(update(801, "hello", user_id=222, chat_id=222)).status_code, 200)
		sent = self.wait_for_requests("/sendMessage")
		self.assertEqual(sent[0]["json"], {"chat_id": "222", "text": "hi stranger"})
		self.assertEqual([run.user for run in self.runs()], [ANN])
		# even written past validation, Administrator never acts for a channel
		frappe.db.set_value("Integration Settings", self.settings, "channel_user", "Administrator")
		frappe.db.commit()
		self.assertEqual(self.post(update(802, "hello", user_id=333, chat_id=333)).status_code, 200)
		refusal = self.wait_for_requests("/sendMessage", count=2)[1]
		self.assertEqual(refusal["json"]["chat_id"], "333")
		self.assertIn("333", refusal["json"]["text"])
		self.assertEqual(len(self.runs()), 1)
		with self.assertRaises(frappe.ValidationError):
			settings = frappe.get_doc("Integration Settings", self.settings)
			settings.channel_user = "Administrator"
			settings.save(ignore_permissions=True)

	def test_setup_webhook_registers_this_site_with_a_new_secret(self):
		name = self.make_settings(None)
		self.api.queue({"ok": True, "result": True, "description": "Webhook was set"})
		doc = frappe.get_doc("Integration Settings", name)
		message = doc.setup_telegram_webhook()
		frappe.db.commit()
		secret = frappe.get_doc("Integration Settings", name).get_password("webhook_secret")
		self.assertGreaterEqual(len(secret), 32)
		request = self.wait_for_requests("/setWebhook")[0]
		self.assertEqual(request["path"], f"/bot{TOKEN}/setWebhook")
		self.assertEqual(request["json"]["secret_token"], secret)
		self.assertTrue(request["json"]["url"].endswith(UPSTREAM), request["json"])
		self.assertIn(request["json"]["url"], message)
		self.assertNotIn(secret, message)
		self.assertNotIn(TOKEN, message)
		# the registered secret is the one the webhook now accepts
		self.llm.queue("registered")
		self.assertEqual(self.post(update(901, "hi"), secret).status_code, 200)

	def test_a_failed_reply_is_logged_without_the_bot_token(self):
		self.api.on(
			"POST",
			f"/bot{TOKEN}/sendMessage",
			reply(
				{"ok": False, "error_code": 403, "description": "Forbidden: bot was blocked by the user"}, 403
			),
		)
		self.llm.queue("you will not see this")
		self.assertEqual(self.post(update(1001, "hi")).status_code, 200)
		self.wait_for_requests("/sendMessage")
		logged = wait_until(
			lambda: frappe.get_all(
				"Error Log",
				filters={"method": ("like", f"%{self.settings}%")},
				fields=["name", "method", "error"],
			),
			timeout=60,
			message="the failed reply was not logged",
		)
		self.addCleanup(_delete_logs, [row.name for row in logged])
		text = " ".join(f"{row.method} {row.error}" for row in logged)
		self.assertIn("blocked by the user", text)
		self.assertNotIn(TOKEN, text)
		self.assertNotIn(TOKEN.split(":")[1], text)


def _delete_logs(names: list) -> None:
	frappe.db.rollback()
	for name in names:
		frappe.delete_doc("Error Log", name, force=True, ignore_permissions=True)
	frappe.db.commit()
