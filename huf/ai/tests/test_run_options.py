"""The upstream arguments of run_agent_sync and run_agent_sync_chat: each one's effect and its refusal;
run_background_summarization and generate_conversation_title (only for conversations the caller may write)."""

import json

import frappe

from huf.ai.agent_integration import (
	generate_conversation_title,
	run_agent_sync,
	run_background_summarization,
)
from huf.ai.chat_api import run_agent_sync_chat
from huf.tests.support.flows import edge, make_flow, node
from huf.tests.support.runs import RuntimeTestCase, set_agent_values
from huf.tests.support.web import api_clients

ALICE = "runopt-alice@example.com"
BOB = "runopt-bob@example.com"
VIEWER = "runopt-viewer@example.com"


class RunOptionsCase(RuntimeTestCase):
	users = ((ALICE, ("Huf User",)), (BOB, ("Huf User",)), (VIEWER, ("Huf Viewer",)))

	@classmethod
	def setUpClass(cls) -> None:
		super().setUpClass()
		cls.agent = cls.make_agent_for_class("Run Options Agent")

	@classmethod
	def make_agent_for_class(cls, name: str, **values) -> str:
		from huf.tests.support.runs import make_runtime_agent

		return make_runtime_agent(name, persist_conversation=1, **values)

	def run_as(
		self, user: str, function=run_agent_sync, agent: str | None = None, prompt: str = "Hello", **kwargs
	):
		frappe.set_user(user)
		try:
			return function(agent or self.agent, prompt, now=1, **kwargs)
		finally:
			frappe.set_user("Administrator")

	def refused(self, exception, user: str = BOB, **kwargs) -> str:
		"""The message of the refusal of a run of `user` with `kwargs`; nothing was written."""
		before = (frappe.db.count("Agent Run"), frappe.db.count("Agent Conversation"))
		with self.assertRaises(exception) as caught:
			self.run_as(user, **kwargs)
		frappe.db.rollback()
		self.assertEqual((frappe.db.count("Agent Run"), frappe.db.count("Agent Conversation")), before)
		return str(caught.exception)

	def run_doc(self, result: dict):
		self.assertTrue(result.get("success"), result)
		return frappe.get_doc("Agent Run", result["agent_run_id"])

	def last_body(self) -> dict:
		return self.llm.chat_requests[-1]["body"]


class TestRunAgentSyncArguments(RunOptionsCase):
	def test_files_are_attached_when_the_caller_may_read_them(self):
		frappe.set_user(ALICE)
		file = frappe.get_doc(
			{
				"doctype": "File",
				"file_name": f"runopt-{frappe.generate_hash(length=8)}.txt",
				"content": b"private notes",
				"is_private": 1,
			}
		).insert(ignore_permissions=True)
		frappe.set_user("Administrator")
		frappe.db.commit()
		self.addCleanup(frappe.db.commit)
		self.addCleanup(frappe.delete_doc, "File", file.name, force=True, ignore_permissions=True)

		run = self.run_doc(self.run_as(ALICE, files=[file.file_url]))
		self.assertEqual(json.loads(run.runtime_context)["attachments"], [file.file_url])
		self.assertIn("File", self.refused(frappe.PermissionError, files=[file.file_url]))
		self.refused(frappe.PermissionError, user=ALICE, files=["/private/files/no-such-file.txt"])
		self.refused(frappe.ValidationError, user=ALICE, files=[None])

	def test_response_format_reaches_the_model(self):
		self.run_doc(self.run_as(ALICE, response_format={"type": "json_object"}))
		self.assertEqual(self.last_body()["response_format"], {"type": "json_object"})
		schema = {"type": "object", "properties": {"city": {"type": "string"}}}
		self.run_doc(self.run_as(ALICE, response_format=json.dumps(schema)))
		self.assertEqual(
			self.last_body()["response_format"],
			{"type": "json_schema", "json_schema": {"name": "response", "schema": schema}},
		)
		for bad in ({"type": "yaml"}, "not json", "[1]", {"type": "json_schema"}):
			self.assertIn(
				"response_format must be",
				self.refused(frappe.ValidationError, user=ALICE, response_format=bad),
			)

	def test_parent_run_links_the_child_run_if_the_caller_may_read_the_parent(self):
		parent = self.run_as(ALICE)["agent_run_id"]
		run = self.run_doc(self.run_as(ALICE, parent_run_id=parent))
		self.assertEqual((run.parent_run, run.is_child), (parent, 1))
		self.refused(frappe.PermissionError, parent_run_id=parent)
		self.refused(frappe.PermissionError, user=ALICE, parent_run_id="no-such-run")

	def test_orchestration_id_links_the_run_to_an_orchestration_of_the_agent(self):
		parent = self.run_as(ALICE)["agent_run_id"]
		orchestration = frappe.get_doc(
			{"doctype": "Agent Orchestration", "agent": self.agent, "parent_run": parent, "status": "Running"}
		).insert(ignore_permissions=True)
		frappe.db.commit()
		self.addCleanup(frappe.db.commit)
		self.addCleanup(frappe.delete_doc, "Agent Orchestration", orchestration.name, force=True)

		run = self.run_doc(self.run_as(ALICE, orchestration_id=orchestration.name))
		self.assertEqual(run.agent_orchestration, orchestration.name)
		self.refused(frappe.PermissionError, orchestration_id=orchestration.name)
		other = self.make_agent("Run Options Other Agent")
		self.refused(frappe.PermissionError, user=ALICE, agent=other, orchestration_id=orchestration.name)

	def test_flow_run_links_the_run_to_a_flow_run_the_caller_may_read(self):
		flow = make_flow(self, [node("start", "trigger.webhook"), node("end", "end")], [edge("start", "end")])
		flow_run = frappe.get_doc(
			{"doctype": "Flow Run", "flow_definition": flow.name, "user": ALICE, "status": "Success"}
		).insert(ignore_permissions=True)
		frappe.db.commit()

		run = self.run_doc(self.run_as(ALICE, flow_run_id=flow_run.name, flow_node_id="agent-1"))
		self.assertEqual(
			(run.flow_run, run.flow_node_id, run.flow_id), (flow_run.name, "agent-1", flow.flow_id)
		)
		self.refused(frappe.PermissionError, flow_run_id=flow_run.name)
		self.assertIn("flow_run_id", self.refused(frappe.ValidationError, user=ALICE, flow_node_id="agent-1"))

	def test_run_kind_takes_only_the_values_of_the_field(self):
		self.assertEqual(self.run_doc(self.run_as(ALICE, run_kind="tool")).run_kind, "tool")
		self.assertIn(
			"run_kind must be one of", self.refused(frappe.ValidationError, user=ALICE, run_kind="root")
		)

	def test_prompt_template_and_version_replace_the_instructions(self):
		first = frappe.get_doc(
			{
				"doctype": "Agent Prompt",
				"title": f"Run Options {frappe.generate_hash(length=6)}",
				"prompt_body": "Version one.",
			}
		).insert(ignore_permissions=True)
		second = first.create_new_version(prompt_body="Version two.")
		frappe.db.commit()
		self.addCleanup(frappe.db.commit)
		self.addCleanup(frappe.db.delete, "Agent Prompt", {"lineage": first.lineage})

		self.run_doc(self.run_as("Administrator", prompt_template=second))
		self.assertEqual(self.last_body()["messages"][0], {"role": "system", "content": "Version two."})
		self.run_doc(self.run_as("Administrator", prompt_template=second, prompt_version=1))
		self.assertEqual(self.last_body()["messages"][0], {"role": "system", "content": "Version one."})
		self.refused(frappe.PermissionError, user="Administrator", prompt_template=second, prompt_version=7)
		self.refused(
			frappe.PermissionError, user=ALICE, prompt_template=second
		)  # Huf Users cannot read prompts
		self.refused(
			frappe.ValidationError, user="Administrator", prompt_version=1
		)  # the agent has no template

	def test_parent_conversation_and_invoking_agent_are_recorded_if_the_caller_may_read_them(self):
		conversation = self.run_as(ALICE)["conversation_id"]
		run = self.run_doc(
			self.run_as(ALICE, parent_conversation_id=conversation, invoked_by_agent=self.agent)
		)
		context = json.loads(run.runtime_context)
		self.assertEqual(
			(context["parent_conversation_id"], context["invoked_by_agent"]), (conversation, self.agent)
		)
		self.refused(frappe.PermissionError, parent_conversation_id=conversation)
		private = self.make_agent("Run Options Private Agent", agent_user=[{"user": BOB}])
		self.refused(frappe.PermissionError, user=ALICE, invoked_by_agent=private)

	def test_prompt_cache_options_reach_the_provider(self):
		self.run_doc(
			self.run_as(
				ALICE, prompt_cache_options={"prompt_cache_key": "tenant-7", "prompt_cache_retention": "24h"}
			)
		)
		body = self.last_body()
		self.assertEqual((body["prompt_cache_key"], body["prompt_cache_retention"]), ("tenant-7", "24h"))
		self.refused(frappe.ValidationError, user=ALICE, prompt_cache_options={"ttl": "1h"})
		self.refused(
			frappe.ValidationError, user=ALICE, prompt_cache_options={"prompt_cache_retention": "forever"}
		)

	def test_an_unknown_argument_is_refused_by_name(self):
		message = self.refused(frappe.ValidationError, user=ALICE, respons_format={"type": "json_object"})
		self.assertIn("respons_format", message)


class TestRunAgentSyncChat(RunOptionsCase):
	def test_create_new_starts_a_new_conversation(self):
		first = self.run_as(ALICE, function=run_agent_sync_chat)
		same = self.run_as(ALICE, function=run_agent_sync_chat)
		new = self.run_as(ALICE, function=run_agent_sync_chat, create_new=1)
		self.assertTrue(first["success"] and same["success"] and new["success"])
		self.assertEqual(same["conversation_id"], first["conversation_id"])
		self.assertNotEqual(new["conversation_id"], first["conversation_id"])
		self.assertEqual(frappe.db.get_value("Agent Conversation", new["conversation_id"], "user"), ALICE)
		later = self.run_as(ALICE, function=run_agent_sync_chat)
		self.assertEqual(later["conversation_id"], new["conversation_id"])
		self.refused(
			frappe.ValidationError,
			user=ALICE,
			function=run_agent_sync_chat,
			create_new=1,
			conversation_id=first["conversation_id"],
		)
		self.refused(
			frappe.PermissionError, function=run_agent_sync_chat, parent_run_id=first["agent_run_id"]
		)


class TestConversationMaintenance(RunOptionsCase):
	def test_summarization_only_for_conversations_the_caller_may_write(self):
		agent = self.make_agent(
			"Run Options Summary Agent",
			persist_conversation=1,
			context_strategy="Summarize",
			history_limit=50,
		)
		conversation = self.run_as(ALICE, agent=agent, prompt="My name is Ana.")["conversation_id"]
		self.run_as(ALICE, agent=agent, prompt="I live in Porto.", conversation_id=conversation)
		set_agent_values(agent, {"history_limit": 2})
		for user in (BOB, VIEWER):
			frappe.set_user(user)
			with self.assertRaises(frappe.PermissionError):
				run_background_summarization(conversation, agent)
		frappe.set_user(ALICE)
		with self.assertRaises(frappe.PermissionError):
			run_background_summarization(conversation, self.agent)  # not a conversation of that agent
		self.llm.queue("Ana lives in Porto.")
		self.assertEqual(
			run_background_summarization(conversation, agent), {"summary": "Ana lives in Porto."}
		)
		frappe.set_user("Administrator")
		self.assertEqual(
			frappe.db.get_value("Agent Conversation", conversation, "summary"), "Ana lives in Porto."
		)
		self.assertIn("My name is Ana.", self.llm.chat_requests[-1]["body"]["messages"][0]["content"])

	def test_title_only_for_conversations_the_caller_may_write(self):
		conversation = self.run_as(ALICE, prompt="Plan a trip to **Lisbon** in May\nwith kids")[
			"conversation_id"
		]
		for user in (BOB, VIEWER):
			frappe.set_user(user)
			with self.assertRaises(frappe.PermissionError):
				generate_conversation_title(conversation, self.agent)
		frappe.set_user(ALICE)
		self.assertEqual(
			generate_conversation_title(conversation, self.agent), {"title": "Plan a trip to Lisbon in May"}
		)
		frappe.db.set_value("Agent Conversation", conversation, "title", "My own title")
		self.assertEqual(generate_conversation_title(conversation, self.agent), {"title": "My own title"})
		frappe.set_user("Administrator")


class TestOverHttp(RunOptionsCase):
	@classmethod
	def setUpClass(cls) -> None:
		super().setUpClass()
		(cls.api,) = api_clients(cls, ALICE, path="/api/method/")

	def test_the_options_over_rest_and_an_unknown_one_refused_with_its_name(self):
		self.llm.queue("{}")
		response = self.api.post(
			"huf.ai.chat_api.run_agent_sync_chat",
			json={
				"agent_name": self.agent,
				"prompt": "Hi",
				"now": 1,
				"create_new": 1,
				"response_format": '{"type": "json_object"}',
				"run_kind": "tool",
			},
		)
		self.assertEqual(response.status_code, 200, response.text)
		body = response.json()["message"]
		self.assertEqual((body["success"], body["response"]), (True, "{}"))
		self.assertEqual(self.last_body()["response_format"], {"type": "json_object"})
		self.assertEqual(frappe.db.get_value("Agent Run", body["agent_run_id"], "run_kind"), "tool")

		refused = self.api.post(
			"huf.ai.agent_integration.run_agent_sync",
			json={"agent_name": self.agent, "prompt": "Hi", "now": 1, "respons_format": "json"},
		)
		self.assertEqual(refused.status_code, 417, refused.text)
		self.assertIn("respons_format", refused.json()["_server_messages"])  # a Huf User gets no traceback
		denied = self.api.post(
			"huf.ai.agent_integration.run_agent_sync",
			json={"agent_name": self.agent, "prompt": "Hi", "now": 1, "parent_run_id": "no-such-run"},
		)
		self.assertEqual(denied.status_code, 403, denied.text)
		self.assertEqual(len(self.llm.chat_requests), 1)
