"""The prompt library at /huf/prompts in a real headless Chromium, against the real server.

Runs `prompts.e2e.mjs`: a System Manager creates a template, saves a change as version 2, compares the
two versions side by side, attaches version 1 to an agent with the version locked, sees the agent under
"Used by" and detaches it; then an edited template asks (the confirm dialog) before another template, Back or a
link takes them away, and Ctrl+S saves the edit as version 3, once. Screenshots go to $HUF_E2E_OUTPUT/prompts (default: <tmp>/huf-e2e/prompts).
"""

from __future__ import annotations

from pathlib import Path

import frappe

from huf.tests.support.browser import BrowserTestCase, make_e2e_agent, remove_e2e_agents

ADMIN = "e2e-prompt-admin@example.com"


def remove_records(suffix: str) -> None:
	"""The agent, model, provider, templates and user of this run; committed."""
	frappe.set_user("Administrator")
	frappe.db.rollback()
	for name in frappe.get_all(
		"Agent Prompt", filters={"title": ("like", f"%{suffix}")}, order_by="version desc", pluck="name"
	):
		frappe.delete_doc("Agent Prompt", name, force=True, ignore_permissions=True)
	remove_e2e_agents(suffix, ADMIN)
	frappe.db.commit()


class TestPromptLibraryInBrowser(BrowserTestCase):
	script = Path(__file__).with_name("prompts.e2e.mjs")

	@classmethod
	def setUpClass(cls):
		super().setUpClass()
		cls.suffix = cls.own_records(remove_records)
		cls.admin = cls.browser_user(ADMIN, "System Manager")
		cls.agent = make_e2e_agent("Prompt", cls.suffix)
		cls.serve()

	def test_versions_diff_locked_template_and_detach(self):
		title = f"E2E Support {self.suffix}"
		result = self.run_browser(
			admin=self.admin, title=title, fork_title=f"My Support {self.suffix}", agent=self.agent
		)
		v1, v2, v3 = result["v1"], result["v2"], result["v3"]
		self.assertEqual(result["listed"], 1)

		# immutable versions of one lineage (the third saved with Ctrl+S at the end); version 1 kept its text
		versions = frappe.get_all(
			"Agent Prompt",
			filters={"title": title},
			fields=["name", "version", "is_latest", "lineage", "prompt_body", "owner"],
			order_by="version asc",
		)
		self.assertEqual(
			[(v.name, v.version, v.is_latest) for v in versions], [(v1, 1, 0), (v2, 2, 0), (v3, 3, 1)]
		)
		self.assertEqual(versions[0].lineage, versions[1].lineage)
		self.assertEqual(versions[0].prompt_body, "You are a support agent.\nAnswer briefly.\nBe kind.")
		self.assertEqual(
			versions[1].prompt_body, "You are a support agent.\nAnswer in detail.\nBe kind.\nSign with Huf."
		)
		self.assertEqual(versions[0].owner, ADMIN)

		# the diff: a changed line beside its replacement, an added line, unchanged lines on both sides
		self.assertEqual(result["diff_stats"], "2 lines added, 1 line removed.")
		self.assertEqual(
			result["diff_rows"],
			[
				["same", "1", "You are a support agent.", "1", "You are a support agent."],
				["changed", "2", "Answer briefly.", "2", "Answer in detail."],
				["same", "3", "Be kind.", "3", "Be kind."],
				["added", "", "", "4", "Sign with Huf."],
			],
		)

		# the fork is version 1 of a lineage of its own, with the latest text
		fork = frappe.get_doc("Agent Prompt", result["fork"])
		self.assertEqual((fork.title, fork.version, fork.owner), (f"My Support {self.suffix}", 1, ADMIN))
		self.assertNotEqual(fork.lineage, versions[0].lineage)
		self.assertEqual(fork.prompt_body, versions[1].prompt_body)
		self.assertEqual(result["fork_versions_tab"], "Versions (1)")

		# attached with version 1 locked: the agent keeps version 1 although version 2 is the latest
		self.assertIn("Answer briefly.", result["template_text"])
		self.assertEqual(
			result["attached"],
			{
				"prompt_mode": "Template",
				"agent_prompt": v1,
				"prompt_version_locked": 1,
				"template_version_at_attach": 1,
			},
		)
		self.assertIn(f"E2E Prompt Agent {self.suffix}", result["used_by"])
		self.assertIn("Keeps version 1", result["used_by"])

		# detached: the agent's own instructions are the locked version's text
		self.assertEqual(result["mode_after_detach"], "Local")
		self.assertEqual(result["instructions_after_detach"], versions[0].prompt_body)
		agent = frappe.get_doc("Agent", self.agent)
		self.assertEqual(
			(agent.prompt_mode, agent.instructions, agent.copied_from_prompt),
			("Local", versions[0].prompt_body, v1),
		)

		# an edited template: another template, Back and a new template's list both ask (the confirm dialog,
		# axe-clean at 1280 and 375 px, light and dark); Escape and Stay keep the page and the edit
		question = "This template has unsaved changes. Leave without saving?"
		self.assertEqual(result["template_leave_question"], {"title": "Unsaved changes", "message": question})
		self.assertEqual(result["back_question"], question)
		kept = {"url": v2, "body": versions[1].prompt_body + "\nNever share secrets."}
		self.assertEqual(result["after_escape"], kept)
		self.assertEqual(result["after_back"], kept)
		for name in ("06-leave-template-1280", "06-leave-template-375"):
			self.assertEqual((result["axe"][name]["light"], result["axe"][name]["dark"]), ([], []), name)
		# Ctrl+S saved the edit as version 3, once: pressed again, no version 4
		self.assertEqual(versions[2].prompt_body, kept["body"])
		self.assertEqual(result["after_second_save"], v3)
		# a new template with only a title asked too; Leave went to the other template
		self.assertEqual(result["new_leave_question"], question)
		self.assertEqual(result["after_leave"], result["fork"])
		self.assertFalse(frappe.db.exists("Agent Prompt", {"title": "Never saved"}))
		self.assertEqual(result["console_errors"], [])
