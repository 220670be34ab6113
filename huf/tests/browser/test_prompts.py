"""The prompt library at /huf/prompts in a real headless Chromium, against the real server.

Runs `prompts.e2e.mjs`: a System Manager creates a template, saves a change as version 2, compares the
two versions side by side, attaches version 1 to an agent with the version locked, sees the agent under
"Used by" and detaches it. Screenshots go to $HUF_E2E_OUTPUT/prompts (default: <tmp>/huf-e2e/prompts).
"""

from __future__ import annotations

import os
import shutil
import tempfile
import unittest
from pathlib import Path

import frappe

from huf.huf.factories import make_agent, make_model, make_user
from huf.tests.support.browser import browser_missing, run_script
from huf.tests.support.case import HufTestCase
from huf.tests.support.web import serve_site

SCRIPT = Path(__file__).with_name("prompts.e2e.mjs")
OUTPUT_DIR = os.path.join(
	os.environ.get("HUF_E2E_OUTPUT") or os.path.join(tempfile.gettempdir(), "huf-e2e"), "prompts"
)
PASSWORD = "E2E-Prompts-Pass-7"
ADMIN = "e2e-prompt-admin@example.com"


def remove_records(suffix: str) -> None:
	"""The agent, model, provider, templates and user of this run; committed."""
	frappe.set_user("Administrator")
	frappe.db.rollback()
	for agent in frappe.get_all("Agent", filters={"agent_name": ("like", f"%{suffix}")}, pluck="name"):
		frappe.delete_doc("Agent", agent, force=True, ignore_permissions=True)
	for name in frappe.get_all(
		"Agent Prompt", filters={"title": ("like", f"%{suffix}")}, order_by="version desc", pluck="name"
	):
		frappe.delete_doc("Agent Prompt", name, force=True, ignore_permissions=True)
	for doctype, name in (("AI Model", f"e2e-model-{suffix}"), ("AI Provider", f"E2E Provider {suffix}")):
		if frappe.db.exists(doctype, name):
			frappe.delete_doc(doctype, name, force=True, ignore_permissions=True)
	if frappe.db.exists("User", ADMIN):
		frappe.delete_doc("User", ADMIN, force=True, ignore_permissions=True)
	frappe.db.commit()


# CI sets HUF_REQUIRE_BROWSER=1: there a missing browser or build is a failure, not a skip.
@unittest.skipIf(
	bool(browser_missing()) and not os.environ.get("HUF_REQUIRE_BROWSER"),
	browser_missing() or "",
)
class TestPromptLibraryInBrowser(HufTestCase):
	@classmethod
	def setUpClass(cls):
		from frappe.utils.password import update_password

		super().setUpClass()
		cls.suffix = frappe.generate_hash(length=8)
		remove_records(cls.suffix)
		cls.addClassCleanup(remove_records, cls.suffix)
		make_user(ADMIN, "System Manager")
		update_password(ADMIN, PASSWORD)
		provider = f"E2E Provider {cls.suffix}"
		model = make_model(f"e2e-model-{cls.suffix}", provider)
		cls.agent = make_agent(
			f"E2E Prompt Agent {cls.suffix}", provider=provider, model=model, instructions="Be brief."
		).name
		frappe.db.commit()
		cls.server, cls.base_url = serve_site()
		cls.addClassCleanup(cls.server.shutdown)

	def test_versions_diff_locked_template_and_detach(self):
		shutil.rmtree(OUTPUT_DIR, ignore_errors=True)
		title = f"E2E Support {self.suffix}"
		config = {
			"base_url": self.base_url,
			"admin": {"user": ADMIN, "password": PASSWORD},
			"title": title,
			"fork_title": f"My Support {self.suffix}",
			"agent": self.agent,
		}
		proc, result = run_script(SCRIPT, config, OUTPUT_DIR)
		self.assertEqual(
			proc.returncode,
			0,
			f"{proc.stdout}\n{proc.stderr}\n{result.get('error')}\nscreenshots: {OUTPUT_DIR}",
		)
		frappe.db.commit()  # a new transaction: read what the web server committed
		v1, v2 = result["v1"], result["v2"]
		self.assertEqual(result["listed"], 1)

		# two immutable versions of one lineage; version 1 kept its text
		versions = frappe.get_all(
			"Agent Prompt",
			filters={"title": title},
			fields=["name", "version", "is_latest", "lineage", "prompt_body", "owner"],
			order_by="version asc",
		)
		self.assertEqual([(v.name, v.version, v.is_latest) for v in versions], [(v1, 1, 0), (v2, 2, 1)])
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
		self.assertEqual(result["console_errors"], [])
