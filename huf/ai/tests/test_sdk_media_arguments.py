"""The media handlers of huf.ai.sdk_tools take upstream's `agent_name` and `conversation_id`: the agent
picks the provider and model and must be one the caller may run, the conversation must be the caller's
to see, and generated images and audio are attached to it."""

import frappe

from huf.ai.sdk_tools import (
	handle_generate_audio,
	handle_generate_image,
	handle_ocr_document,
	handle_transcribe_audio,
)
from huf.tests.support.committed import delete_committed
from huf.tests.support.factories import make_user
from huf.tests.support.media import AGENT, VOICE_PROVIDER, MediaTestCase, make_agent, make_model
from huf.tests.support.role_sessions import ALICE, BOB, VIEWER, RoleSessionsTestCase

USER = "sdk-media-user@example.com"
NO_ROLES = "sdk-media-no-roles@example.com"
VOICE_AGENT = "Media Voice Agent"
IMAGE_METHOD = "/api/method/huf.ai.sdk_tools.handle_generate_image"


def requests_to(server, path: str) -> list[dict]:
	return [r for r in server.requests if r["path"].endswith(path)]


def attachment(file_id: str) -> tuple:
	row = frappe.db.get_value(
		"File", file_id, ["attached_to_doctype", "attached_to_name", "is_private"], as_dict=True
	)
	return (row.attached_to_doctype, row.attached_to_name, row.is_private)


class TestMediaHandlerArguments(MediaTestCase):
	def test_agent_name_picks_the_provider_and_conversation_id_gets_the_media(self):
		conversation = self.conversation()  # Media Agent's, on the main provider
		make_model("voice-chat", VOICE_PROVIDER)
		make_agent(VOICE_AGENT, VOICE_PROVIDER, "voice-chat")

		image = handle_generate_image(prompt="a kite", agent_name=VOICE_AGENT, conversation_id=conversation)
		self.assertTrue(image["success"], image)
		self.assertEqual(attachment(image["images"][0]["file_id"]), ("Agent Conversation", conversation, 1))
		self.assertEqual(len(requests_to(self.voice, "/images/generations")), 1)  # the named agent's provider
		self.assertEqual(requests_to(self.llm, "/images/generations"), [])

		# without agent_name: the conversation's agent
		handle_generate_image(prompt="a boat", conversation_id=conversation)
		self.assertEqual(len(requests_to(self.llm, "/images/generations")), 1)

		audio = handle_generate_audio(input="Hello there", agent_name=AGENT, conversation_id=conversation)
		self.assertTrue(audio["success"], audio)
		self.assertEqual(attachment(audio["file_id"]), ("Agent Conversation", conversation, 1))
		self.assertEqual(len(requests_to(self.llm, "/audio/speech")), 1)

		note = self.upload("sdk-note.txt", b"Invoice 42 is paid.")
		text = handle_ocr_document(file_id=note.name, agent_name=AGENT, conversation_id=conversation)
		self.assertEqual((text["success"], text["text"].strip()), (True, "Invoice 42 is paid."))

	def test_the_agent_and_the_conversation_are_checked_as_the_caller(self):
		theirs = self.conversation()  # Administrator's
		make_user(USER, "Huf User")
		make_user(NO_ROLES)
		with self.set_user(USER):
			own = self.conversation(user=USER)
			image = handle_generate_image(prompt="a cat", agent_name=AGENT, conversation_id=own)
			self.assertEqual(attachment(image["images"][0]["file_id"]), ("Agent Conversation", own, 1))
			for conversation in (theirs, "no-such-conversation"):
				with self.assertRaisesRegex(frappe.PermissionError, "access denied"):
					handle_generate_image(prompt="a dog", agent_name=AGENT, conversation_id=conversation)
				with self.assertRaisesRegex(frappe.PermissionError, "access denied"):
					handle_generate_audio(input="Hi", conversation_id=conversation)
		with self.set_user(NO_ROLES):  # may not run the agent
			with self.assertRaises(frappe.PermissionError):
				handle_generate_image(prompt="a dog", agent_name=AGENT)
			with self.assertRaises(frappe.PermissionError):
				handle_transcribe_audio(file_url="/files/x.mp3", agent_name=AGENT)
		with self.set_user("Guest"):
			with self.assertRaises(frappe.PermissionError):
				handle_ocr_document(file_url="/files/x.txt", agent_name=AGENT)
		self.assertEqual(len(requests_to(self.llm, "/images/generations")), 1)  # the allowed one only


class TestMediaHandlersOverHTTP(RoleSessionsTestCase):
	def test_upstream_arguments_over_http(self):
		conversation = frappe.get_doc(
			{"doctype": "Agent Conversation", "agent": self.AGENT, "user": ALICE, "title": "kites"}
		).insert(ignore_permissions=True)
		frappe.db.commit()
		body = {"prompt": "a red kite", "agent_name": self.AGENT, "conversation_id": conversation.name}

		answer = self.session(ALICE).post(IMAGE_METHOD, json=body)
		self.assertEqual(answer.status_code, 200, answer.text)
		[image] = answer.json()["message"]["images"]
		self.addCleanup(delete_committed, "File", image["file_id"])
		self.assertEqual(attachment(image["file_id"]), ("Agent Conversation", conversation.name, 1))

		for user in (BOB, VIEWER):  # not Bob's conversation; a viewer runs no agents
			refused = self.session(user).post(IMAGE_METHOD, json=body)
			self.assertEqual(refused.status_code, 403, f"{user}: {refused.text}")
		self.assertEqual(self.client().post(IMAGE_METHOD, json=body).status_code, 403)
		self.assertEqual(self.session(ALICE).get(IMAGE_METHOD, params=body).status_code, 403)
		self.assertEqual(len(requests_to(self.llm, "/images/generations")), 1)
		frappe.db.rollback()
		self.assertEqual(
			frappe.get_all("File", filters={"attached_to_name": conversation.name}, pluck="name"),
			[image["file_id"]],
		)
