"""The prompt library API (huf.ai.prompt_api) for both kinds: versions, forks, attaching, permissions."""

import json

import frappe

from huf.ai import prompt_api
from huf.ai.conversation.summarizer import summary_prompt
from huf.ai.runtime.agent import AgentManager
from huf.api import prompts as prompts_api
from huf.huf.capabilities import forget_capabilities
from huf.tests.support.case import HufTestCase
from huf.tests.support.factories import make_agent, make_user
from huf.tests.support.runs import delete_users
from huf.tests.support.web import api_clients

VIEWER = "prompt-api-viewer@example.com"
USER = "prompt-api-user@example.com"
MANAGER = "prompt-api-manager@example.com"
ADMIN = "prompt-api-admin@example.com"
NO_ROLES = "prompt-api-no-roles@example.com"
USERS = [VIEWER, USER, MANAGER, ADMIN, NO_ROLES]
METHOD = "/api/method/huf.ai.prompt_api."
PROMPTS_API = "/api/method/huf.api.prompts."


def unique(prefix: str) -> str:
	return f"{prefix} {frappe.generate_hash(length=8)}"


class PromptAPITestCase(HufTestCase):
	@classmethod
	def setUpClass(cls):
		super().setUpClass()
		make_user(VIEWER, "Huf Viewer")
		make_user(USER, "Huf User")
		make_user(MANAGER, "Huf Manager")
		make_user(ADMIN, "System Manager")
		make_user(NO_ROLES)
		frappe.db.commit()
		cls.addClassCleanup(delete_users, USERS)


class PromptAPITests:
	"""The same tests for Agent Prompt and Agent Summary Prompt (their endpoints and Agent fields)."""

	# Set by each subclass: the kind, its DocType and Agent fields, its endpoints (staticmethods) and
	# runtime_body(agent), the text the runtime uses for this kind of prompt of the agent.
	kind = prompt_doctype = local_field = locked_field = ""

	def prompt(self, body: str = "Version one.", **values):
		return frappe.get_doc(
			{"doctype": self.prompt_doctype, "title": unique("Library Prompt"), "prompt_body": body, **values}
		).insert()

	def agent(self, **values) -> str:
		return make_agent(unique("Prompt Agent"), **values).name

	def refused(self, user: str, function, *args, exc=frappe.PermissionError, **kwargs) -> str:
		with self.set_user(user), self.assertRaises(exc) as caught:
			function(*args, **kwargs)
		return str(caught.exception)

	# --- versions ------------------------------------------------------------------------------

	def test_a_new_version_becomes_latest_and_the_old_one_stays(self):
		v1 = self.prompt("Be brief.")
		v2 = self.new_version(v1.name, "Be brief and kind.", title="Kinder", description="v2")
		self.assertEqual((v2["version"], v2["is_latest"], v2["lineage"]), (2, 1, v1.lineage))
		self.assertEqual(
			(v2["prompt_body"], v2["title"], v2["description"]), ("Be brief and kind.", "Kinder", "v2")
		)
		self.assertEqual(v2["previous_version"], v1.name)
		old = frappe.db.get_value(self.prompt_doctype, v1.name, ["prompt_body", "is_latest"], as_dict=True)
		self.assertEqual((old.prompt_body, old.is_latest), ("Be brief.", 0))

		v3 = self.new_version(v1.name, "Third.")
		history = self.history(v3["name"])
		self.assertEqual(
			[(r.version, r.prompt_body, r.is_latest) for r in history],
			[(3, "Third.", 1), (2, "Be brief and kind.", 0), (1, "Be brief.", 0)],
		)

	def test_a_saved_version_body_cannot_change(self):
		v1 = self.prompt("Original.")
		doc = frappe.get_doc(self.prompt_doctype, v1.name)
		doc.prompt_body = "Edited in place."
		with self.assertRaisesRegex(frappe.ValidationError, "immutable"):
			doc.save()
		self.assertEqual(frappe.db.get_value(self.prompt_doctype, v1.name, "prompt_body"), "Original.")
		doc = frappe.get_doc(self.prompt_doctype, v1.name)
		doc.description = "Only the description changes."
		doc.save()
		self.assertEqual(
			frappe.db.get_value(self.prompt_doctype, v1.name, "description"), "Only the description changes."
		)

	def test_an_empty_body_is_refused(self):
		v1 = self.prompt()
		with self.assertRaises(frappe.ValidationError):
			self.new_version(v1.name, "   ")
		self.assertEqual(frappe.db.count(self.prompt_doctype, {"lineage": v1.lineage}), 1)

	def test_a_fork_starts_a_new_lineage(self):
		v1 = self.prompt("Forked text.")
		self.new_version(v1.name, "Later text.")
		fork = self.fork(v1.name, "My Fork")
		self.assertEqual((fork["version"], fork["is_latest"], fork["previous_version"]), (1, 1, None))
		self.assertNotEqual(fork["lineage"], v1.lineage)
		self.assertEqual((fork["prompt_body"], fork["title"]), ("Forked text.", "My Fork"))
		self.assertTrue(fork["slug"].startswith("my-fork"))
		self.assertEqual([r.name for r in self.history(fork["name"])], [fork["name"]])
		self.assertEqual(len(self.history(v1.name)), 2)
		again = self.fork(v1.name, "My Fork")
		self.assertNotEqual(again["slug"], fork["slug"])

	# --- agents ----------------------------------------------------------------------------------

	def test_a_locked_agent_keeps_its_version_an_unlocked_one_follows(self):
		v1 = self.prompt("Locked body.")
		locked, unlocked = self.agent(), self.agent()
		state = self.attach(locked, v1.name, 1)
		self.assertEqual(
			(state["mode"], state["template"], state["locked"], state["version_at_attach"]),
			("Template", v1.name, 1, 1),
		)
		self.attach(unlocked, v1.name, 0)
		self.new_version(v1.name, "Newer body.")
		self.assertEqual(self.runtime_body(locked), "Locked body.")
		self.assertEqual(self.runtime_body(unlocked), "Newer body.")

	def test_detach_copies_the_text_the_agent_runs_with(self):
		v1 = self.prompt("Pinned text.")
		agent = self.agent()
		self.attach(agent, v1.name, 1)
		v2 = self.new_version(v1.name, "Latest text.")
		state = self.detach(agent)
		self.assertEqual(
			(state["mode"], state["template"], state["local_text"]), ("Local", None, "Pinned text.")
		)
		self.assertEqual(state["copied_from"], v1.name)
		self.assertEqual(self.runtime_body(agent), "Pinned text.")

		other = self.agent()
		self.attach(other, v1.name, 0)
		state = self.detach(other)
		self.assertEqual((state["local_text"], state["copied_from"]), ("Latest text.", v2["name"]))
		stored = frappe.db.get_value("Agent", other, [self.local_field, "name"], as_dict=True)
		self.assertEqual(stored.get(self.local_field), "Latest text.")
		with self.assertRaisesRegex(frappe.ValidationError, "does not use"):
			self.detach(other)

	def test_save_as_template_from_local_text(self):
		agent = self.agent(**{self.local_field: "My own words."})
		out = self.save_as_template(agent, unique("Saved"), None, "Private", "from an agent")
		prompt = out["prompt"]
		self.assertEqual(
			(prompt["prompt_body"], prompt["version"], prompt["visibility"]), ("My own words.", 1, "Private")
		)
		self.assertEqual(prompt["description"], "from an agent")
		self.assertEqual(
			(out["agent"]["mode"], out["agent"]["template"], out["agent"]["locked"]),
			("Template", prompt["name"], 0),
		)
		self.assertEqual(self.runtime_body(agent), "My own words.")

		empty = self.agent(**{self.local_field: ""})
		with self.assertRaisesRegex(frappe.ValidationError, "no local"):
			self.save_as_template(empty, "Nothing")
		with self.assertRaises(frappe.ValidationError):
			self.save_as_template(agent, "Bad visibility", None, "Everyone")

	# --- reads -------------------------------------------------------------------------------------

	def test_list_get_and_used_by(self):
		v1 = self.prompt("Listed.", description="findable needle")
		v2 = self.new_version(v1.name, "Listed v2.")
		private = self.prompt("Mine.", visibility="Private")
		first, second = self.agent(), self.agent()
		self.attach(first, v1.name, 1)
		self.attach(second, v2["name"], 0)

		listed = prompts_api.list_prompts(self.kind, search="needle")
		self.assertEqual([r.name for r in listed], [v2["name"]])
		self.assertNotIn("prompt_body", listed[0])
		with self.set_user(MANAGER):
			names = [r.name for r in prompts_api.list_prompts(self.kind)]
			self.assertIn(v2["name"], names)
			self.assertNotIn(v1.name, names)
			self.assertNotIn(private.name, names)
			self.assertEqual([r.name for r in prompts_api.list_prompts(self.kind, visibility="Private")], [])
			with self.assertRaises(frappe.DoesNotExistError):
				prompts_api.get_prompt(private.name, self.kind)
			self.assertEqual(frappe.get_list(self.prompt_doctype, filters={"name": private.name}), [])
			self.assertFalse(frappe.has_permission(self.prompt_doctype, "read", doc=private.name))
			got = prompts_api.get_prompt(v1.name, self.kind)
			self.assertEqual((got["prompt_body"], got["can_write"]), ("Listed.", False))
			used = prompts_api.used_by(v1.name, self.kind)
		self.assertEqual(
			sorted((u["agent"], u["prompt"], u["locked"]) for u in used),
			sorted([(first, v1.name, 1), (second, v2["name"], 0)]),
		)
		self.assertIn(
			private.name, [r.name for r in prompts_api.list_prompts(self.kind, visibility="Private")]
		)
		self.assertTrue(prompts_api.get_prompt(private.name, self.kind)["can_write"])

	def test_bad_input_gets_clear_errors(self):
		v1 = self.prompt()
		with self.assertRaisesRegex(frappe.DoesNotExistError, "not found"):
			self.history("no-such-prompt")
		with self.assertRaisesRegex(frappe.DoesNotExistError, "not found"):
			self.attach("No Such Agent", v1.name, 0)
		with self.assertRaisesRegex(frappe.ValidationError, "Kind must be"):
			prompts_api.list_prompts("other")

	# --- permissions -------------------------------------------------------------------------------

	def test_only_prompt_writers_change_the_library(self):
		v1 = self.prompt()
		agent = self.agent(**{self.local_field: "Local."})
		for user in (MANAGER, USER, VIEWER, NO_ROLES):
			self.refused(user, self.new_version, v1.name, "Changed.")
			self.refused(user, self.save_as_template, agent, "Nope")
		for user in (USER, VIEWER, NO_ROLES):
			self.refused(user, self.fork, v1.name, "Nope")
			self.refused(user, self.history, v1.name)
			self.refused(user, prompts_api.list_prompts, self.kind)
			self.refused(user, prompts_api.get_prompt, v1.name, self.kind)
		self.refused(MANAGER, self.fork, v1.name, "Nope")
		self.assertEqual(frappe.db.count(self.prompt_doctype, {"lineage": v1.lineage}), 1)
		with self.set_user(ADMIN):
			self.assertEqual(self.new_version(v1.name, "By an admin.")["version"], 2)

	def test_agent_operations_need_agent_write_and_agent_edit(self):
		v1 = self.prompt("Shared.")
		agent = self.agent()
		for user in (USER, VIEWER, NO_ROLES):
			self.refused(user, self.attach, agent, v1.name, 1)
		with self.set_user(MANAGER):
			self.assertEqual(self.attach(agent, v1.name, 1)["template"], v1.name)
			self.assertEqual(self.detach(agent)["local_text"], "Shared.")
		self.attach(agent, v1.name, 0)
		for user in (USER, VIEWER, NO_ROLES):
			self.refused(user, self.detach, agent)

		frappe.db.delete("Huf Role Permission", {"parent": "Huf Manager", "capability": "agent.edit"})
		forget_capabilities()  # deleted without the controller
		message = self.refused(MANAGER, self.attach, agent, v1.name, 1)
		self.assertIn("agent.edit", message)
		self.assertIn("agent.edit", self.refused(MANAGER, self.detach, agent))
		self.assertEqual(frappe.db.get_value("Agent", agent, self.locked_field), 0)


class TestAgentPromptAPI(PromptAPITests, PromptAPITestCase):
	kind = "prompt"
	prompt_doctype = "Agent Prompt"
	local_field = "instructions"
	locked_field = "prompt_version_locked"
	new_version = staticmethod(prompt_api.create_new_version)
	fork = staticmethod(prompt_api.fork_prompt)
	attach = staticmethod(prompt_api.attach_template)
	detach = staticmethod(prompt_api.detach_from_template)
	save_as_template = staticmethod(prompt_api.save_as_template)
	history = staticmethod(prompt_api.get_version_history)

	def runtime_body(self, agent: str) -> str:
		return AgentManager(agent).get_instructions()


class TestAgentSummaryPromptAPI(PromptAPITests, PromptAPITestCase):
	kind = "summary"
	prompt_doctype = "Agent Summary Prompt"
	local_field = "summary_prompt"
	locked_field = "summary_prompt_version_locked"
	new_version = staticmethod(prompt_api.create_new_summary_version)
	fork = staticmethod(prompt_api.fork_summary_prompt)
	attach = staticmethod(prompt_api.attach_summary_template)
	detach = staticmethod(prompt_api.detach_from_summary_template)
	save_as_template = staticmethod(prompt_api.save_as_summary_template)
	history = staticmethod(prompt_api.get_summary_version_history)

	def runtime_body(self, agent: str) -> str:
		return summary_prompt(frappe.get_doc("Agent", agent))


class TestPromptAPIOverHTTP(PromptAPITestCase):
	"""What callers see over HTTP: status codes for reads, refusals, missing records and bad input."""

	@classmethod
	def setUpClass(cls):
		super().setUpClass()
		cls.guest, cls.manager, cls.user = api_clients(cls, None, MANAGER, USER)

	def test_status_codes(self):
		v1 = frappe.get_doc(
			{"doctype": "Agent Prompt", "title": unique("HTTP Prompt"), "prompt_body": "Over HTTP."}
		).insert()
		agent = make_agent(unique("HTTP Prompt Agent")).name
		private = frappe.get_doc(
			{
				"doctype": "Agent Prompt",
				"title": unique("HTTP Private"),
				"prompt_body": "Mine.",
				"visibility": "Private",
			}
		).insert()
		frappe.db.commit()
		self.addCleanup(self.delete_committed, agent, v1.lineage, private.lineage)

		hidden = self.manager.get(f"/api/resource/Agent Prompt/{private.name}")
		self.assertEqual(hidden.status_code, 403, hidden.text)
		resource_list = self.manager.get(
			"/api/resource/Agent Prompt",
			params={"filters": json.dumps([["name", "in", [v1.name, private.name]]])},
		)
		self.assertEqual([r["name"] for r in resource_list.json()["data"]], [v1.name])

		listed = self.manager.get(PROMPTS_API + "list_prompts", params={"search": v1.title})
		self.assertEqual(listed.status_code, 200, listed.text)
		self.assertEqual([r["name"] for r in listed.json()["message"]], [v1.name])
		self.assertEqual(
			self.manager.get(METHOD + "get_version_history", params={"prompt_name": v1.name}).status_code, 200
		)

		refused = self.manager.post(
			METHOD + "create_new_version", json={"prompt_name": v1.name, "prompt_body": "x"}
		)
		self.assertEqual(refused.status_code, 403, refused.text)
		self.assertEqual(
			self.user.post(
				METHOD + "attach_template", json={"agent_name": agent, "prompt_name": v1.name}
			).status_code,
			403,
		)
		self.assertEqual(self.guest.get(PROMPTS_API + "list_prompts").status_code, 403)
		missing = self.manager.get(PROMPTS_API + "get_prompt", params={"prompt_name": "no-such-prompt"})
		self.assertEqual(missing.status_code, 404, missing.text)
		bad_kind = self.manager.get(PROMPTS_API + "list_prompts", params={"kind": "other"})
		self.assertEqual(bad_kind.status_code, 417, bad_kind.text)
		get_change = self.manager.get(
			METHOD + "attach_template", params={"agent_name": agent, "prompt_name": v1.name}
		)
		self.assertEqual(get_change.status_code, 403, get_change.text)  # changes are POST only
		self.assertIsNone(frappe.db.get_value("Agent", agent, "agent_prompt"))

		attached = self.manager.post(
			METHOD + "attach_template", json={"agent_name": agent, "prompt_name": v1.name, "lock_version": 1}
		)
		self.assertEqual(attached.status_code, 200, attached.text)
		self.assertEqual(attached.json()["message"]["template"], v1.name)
		frappe.db.rollback()
		self.assertEqual(
			frappe.db.get_value("Agent", agent, ["agent_prompt", "prompt_version_locked"]), (v1.name, 1)
		)

	def delete_committed(self, agent: str, *lineages: str) -> None:
		frappe.delete_doc("Agent", agent, force=True, ignore_permissions=True)
		frappe.db.delete("Agent Prompt", {"lineage": ["in", lineages]})
		frappe.db.commit()
