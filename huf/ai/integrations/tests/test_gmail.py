"""Gmail tools against a scripted Gmail API: the requests as Google documents them, the answers the model gets."""

import base64
import json
from email import message_from_bytes
from email.policy import default as default_policy

import frappe

from huf.ai.agent_integration import run_agent_sync
from huf.ai.integrations.services.gmail import (
	gmail_create_draft,
	gmail_mark_as_read,
	gmail_read_email,
	gmail_search_emails,
	gmail_send_email,
)
from huf.ai.tools.app_sync import sync_tools
from huf.tests.support.http_service import allowed_service, reply
from huf.tests.support.llm_server import Reply, tool_call
from huf.tests.support.runs import RuntimeTestCase
from huf.tests.support.service_tools import GOOGLE_APP, ServiceToolTestCase, oauth_values

TOKEN = "ya29.gmail-test-access-token"


def b64url(text: str) -> str:
	return base64.urlsafe_b64encode(text.encode()).decode().rstrip("=")


class TestGmailTools(ServiceToolTestCase):
	SERVICE = "gmail"
	CREDENTIALS = GOOGLE_APP
	SETTINGS_VALUES = oauth_values(TOKEN)

	def test_send_email_posts_the_rfc2822_message_base64url_encoded(self):
		self.api.queue({"id": "18c1", "threadId": "18b0", "labelIds": ["SENT"]})
		result = gmail_send_email(
			to="anna@example.com",
			subject="Quarterly numbers – Q3",
			body="Hi Anna,\nthe numbers are attached.\n",
			cc="bob@example.com",
			thread_id="18b0",
		)
		self.assertEqual(result, {"sent": True, "id": "18c1", "thread_id": "18b0"})
		[request] = self.api.requests
		self.assertEqual((request["method"], request["path"]), ("POST", "/gmail/v1/users/me/messages/send"))
		self.assertEqual(request["headers"]["authorization"], f"Bearer {TOKEN}")
		body = json.loads(request["body"])
		self.assertEqual(body["threadId"], "18b0")
		raw = body["raw"]
		self.assertNotIn("+", raw)
		self.assertNotIn("/", raw)
		message = message_from_bytes(
			base64.urlsafe_b64decode(raw + "=" * (-len(raw) % 4)), policy=default_policy
		)
		self.assertEqual(message["To"], "anna@example.com")
		self.assertEqual(message["Cc"], "bob@example.com")
		self.assertEqual(message["Subject"], "Quarterly numbers – Q3")
		self.assertEqual(message.get_content(), "Hi Anna,\nthe numbers are attached.\n")
		self.assert_no_secret(result)

	def test_header_injection_is_refused_before_anything_is_sent(self):
		cases = [
			{"to": "anna@example.com", "subject": "Hello\r\nBcc: thief@example.com"},
			{"to": "anna@example.com\nBcc: thief@example.com", "subject": "Hello"},
			{"to": "anna@example.com", "subject": "Hello", "cc": "bob@example.com\r\nBcc: thief@example.com"},
		]
		for case in cases:
			with self.subTest(case=case):
				with self.assertRaises(frappe.ValidationError) as caught:
					gmail_send_email(body="text", **case)
				self.assertIn("line breaks", str(caught.exception))
		self.assertEqual(self.api.requests, [])

	def test_search_lists_then_reads_the_metadata_of_each_message(self):
		self.api.queue({"messages": [{"id": "m1", "threadId": "t1"}, {"id": "m2", "threadId": "t2"}]})
		for number in (1, 2):
			self.api.queue(
				{
					"id": f"m{number}",
					"threadId": f"t{number}",
					"snippet": f"Invoice {number} is due &amp; payable",
					"payload": {
						"headers": [
							{"name": "From", "value": f"Shop {number} <shop{number}@example.com>"},
							{"name": "Subject", "value": f"Invoice {number}"},
							{"name": "Date", "value": "Mon, 1 Dec 2025 10:00:00 +0000"},
						]
					},
				}
			)
		result = gmail_search_emails(query="from:shop is:unread", limit=2)
		self.assertEqual(result["count"], 2)
		self.assertEqual(
			result["messages"][1],
			{
				"id": "m2",
				"thread_id": "t2",
				"from": "Shop 2 <shop2@example.com>",
				"subject": "Invoice 2",
				"date": "Mon, 1 Dec 2025 10:00:00 +0000",
				"snippet": "Invoice 2 is due & payable",
			},
		)
		listing, first, second = self.api.requests
		self.assertEqual((listing["method"], listing["path"]), ("GET", "/gmail/v1/users/me/messages"))
		self.assertEqual(listing["query"], {"q": "from:shop is:unread", "maxResults": "2"})
		self.assertEqual(first["path"], "/gmail/v1/users/me/messages/m1")
		self.assertEqual(second["path"], "/gmail/v1/users/me/messages/m2")
		self.assertEqual(
			first["query"], {"format": "metadata", "metadataHeaders": ["From", "Subject", "Date"]}
		)
		for request in self.api.requests:
			self.assertEqual(request["headers"]["authorization"], f"Bearer {TOKEN}")

	def test_read_decodes_the_text_part_of_a_multipart_message(self):
		self.api.queue(
			{
				"id": "m9",
				"threadId": "t9",
				"payload": {
					"mimeType": "multipart/alternative",
					"headers": [
						{"name": "From", "value": "Jörg <joerg@example.com>"},
						{"name": "To", "value": "me@example.com"},
						{"name": "Subject", "value": "Grüße"},
					],
					"parts": [
						{"mimeType": "text/html", "body": {"data": b64url("<p>Viele Grüße</p>")}},
						{"mimeType": "text/plain", "body": {"data": b64url("Viele Grüße aus Köln?>")}},
					],
				},
			}
		)
		result = gmail_read_email(message_id="m9")
		self.assertEqual(result["body"], "Viele Grüße aus Köln?>")
		self.assertEqual((result["subject"], result["from"]), ("Grüße", "Jörg <joerg@example.com>"))
		self.assertFalse(result["truncated"])
		[request] = self.api.requests
		self.assertEqual(request["path"], "/gmail/v1/users/me/messages/m9")
		self.assertEqual(request["query"], {"format": "full"})

	def test_read_caps_a_long_body_and_quotes_the_message_id(self):
		self.api.queue(
			{"id": "x", "payload": {"mimeType": "text/plain", "body": {"data": b64url("a" * 30000)}}}
		)
		result = gmail_read_email(message_id="../../settings")
		self.assertEqual(len(result["body"]), 20000)
		self.assertTrue(result["truncated"])
		self.assertEqual(self.api.requests[0]["path"], "/gmail/v1/users/me/messages/..%2F..%2Fsettings")

	def test_a_gmail_error_reaches_the_model_as_readable_text_without_the_token(self):
		self.api.queue(
			reply(
				{
					"error": {
						"code": 403,
						"message": "Request had insufficient authentication scopes.",
						"status": "PERMISSION_DENIED",
					}
				},
				status=403,
			)
		)
		with self.assertRaises(frappe.ValidationError) as caught:
			gmail_search_emails(query="anything")
		message = str(caught.exception)
		self.assertIn("403", message)
		self.assertIn("insufficient authentication scopes", message)
		self.assert_no_secret(message)


class TestGmailDraftsAndLabels(ServiceToolTestCase):
	SERVICE = "gmail"
	CREDENTIALS = GOOGLE_APP
	SETTINGS_VALUES = oauth_values(TOKEN)

	def test_create_draft_saves_the_rfc2822_message(self):
		self.api.queue({"id": "r-123", "message": {"id": "m7", "threadId": "t7", "labelIds": ["DRAFT"]}})
		result = gmail_create_draft(to="anna@example.com", subject="Offer", body="Draft text")
		self.assertEqual(
			result, {"created": True, "draft_id": "r-123", "message_id": "m7", "thread_id": "t7"}
		)
		[request] = self.api.requests
		self.assertEqual((request["method"], request["path"]), ("POST", "/gmail/v1/users/me/drafts"))
		self.assertEqual(request["headers"]["authorization"], f"Bearer {TOKEN}")
		raw = request["json"]["message"]["raw"]
		message = message_from_bytes(
			base64.urlsafe_b64decode(raw + "=" * (-len(raw) % 4)), policy=default_policy
		)
		self.assertEqual((message["To"], message["Subject"]), ("anna@example.com", "Offer"))
		self.assertEqual(message.get_content(), "Draft text\n")
		with self.assertRaisesRegex(frappe.ValidationError, "line breaks"):
			gmail_create_draft(to="anna@example.com", subject="x\nBcc: thief@example.com", body="y")
		self.assertEqual(len(self.api.requests), 1)

	def test_mark_as_read_removes_the_unread_label(self):
		self.api.queue({"id": "m9", "threadId": "t9", "labelIds": ["INBOX"]})
		result = gmail_mark_as_read(message_id="m9")
		self.assertEqual(result, {"marked_read": True, "id": "m9", "labels": ["INBOX"]})
		[request] = self.api.requests
		self.assertEqual(
			(request["method"], request["path"]), ("POST", "/gmail/v1/users/me/messages/m9/modify")
		)
		self.assertEqual(request["json"], {"removeLabelIds": ["UNREAD"]})


class TestGmailToolInAnAgentRun(RuntimeTestCase):
	"""The model calls the synced gmail_send_email: mail is sent with the OAuth token, which the model never
	sees; an injected header fails as a tool error the model reads, and nothing is sent."""

	@classmethod
	def setUpClass(cls) -> None:
		super().setUpClass()
		cls.api = allowed_service(cls)
		sync_tools(apps=["huf"], force=True)
		frappe.db.commit()

	def setUp(self) -> None:
		super().setUp()
		self.api.reset()
		settings = frappe.get_doc(
			{
				"doctype": "Integration Settings",
				"service": "gmail",
				"label": f"gmail {frappe.generate_hash(length=8)}",
				"is_active": 1,
				"base_url": self.api.url,
				"credentials": [{"key": k, "value": v} for k, v in GOOGLE_APP.items()],
				**oauth_values(TOKEN),
			}
		).insert(ignore_permissions=True)
		frappe.db.commit()
		self.settings = settings.name
		self.addCleanup(_delete, "Integration Settings", settings.name)
		self.agent = self.make_agent(
			f"Mailer {frappe.generate_hash(length=8)}",
			# gmail_send_email asks for approval by default; this test is about the call itself
			agent_tool=[{"tool": "gmail_send_email", "requires_approval": "Never"}],
		)

	def run_tool(self, arguments: dict) -> tuple[dict, str, dict]:
		self.llm.queue(
			Reply(
				content="",
				tool_calls=[tool_call("gmail_send_email", {**arguments, "settings": self.settings})],
			),
			Reply(content="Done."),
		)
		result = run_agent_sync(self.agent, "Mail Anna.", now=1)
		self.assertTrue(result.get("success"), result)
		frappe.db.rollback()
		[call] = frappe.get_all(
			"Agent Tool Call",
			filters={"agent_run": result["agent_run_id"]},
			fields=["status", "tool_result", "error_message"],
		)
		tool_message = self.llm.chat_requests[1]["body"]["messages"][-1]["content"]
		for text in (json.dumps(self.llm.chat_requests), json.dumps(call, default=str)):
			self.assertNotIn(TOKEN, text)
		return result, tool_message, call

	def test_agent_sends_a_mail(self):
		self.api.queue({"id": "18d2", "threadId": "18d2"})
		_result, tool_message, _call = self.run_tool(
			{"to": "anna@example.com", "subject": "Hi", "body": "See you."}
		)
		self.assertEqual(json.loads(tool_message), {"sent": True, "id": "18d2", "thread_id": "18d2"})
		[request] = self.api.requests
		self.assertEqual(request["path"], "/gmail/v1/users/me/messages/send")
		self.assertEqual(request["headers"]["authorization"], f"Bearer {TOKEN}")

	def test_header_injection_reaches_the_model_as_an_error(self):
		_result, tool_message, call = self.run_tool(
			{"to": "anna@example.com", "subject": "Hi\r\nBcc: thief@example.com", "body": "x"}
		)
		self.assertIn("line breaks", tool_message)
		self.assertIn("line breaks", call.error_message or call.tool_result or "")
		self.assertEqual(self.api.requests, [])


def _delete(doctype: str, name: str) -> None:
	frappe.db.rollback()
	if frappe.db.exists(doctype, name):
		frappe.delete_doc(doctype, name, force=True, ignore_permissions=True)
	frappe.db.commit()
