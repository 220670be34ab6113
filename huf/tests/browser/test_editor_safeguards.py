"""Editor safeguards and live knowledge status in a real headless Chromium, against the real server.

Runs `editor_safeguards.e2e.mjs`. An administrator: edits an agent and is asked before a link (the confirm dialog), and before
closing the tab, takes them away (answering "stay" keeps the edit); sees an "Enabled" switch, not a
"Disabled" one; is offered only tools the agent does not have yet, with their descriptions, searched by
name and description, and saves the one added with Ctrl+S (once); saving a new agent with empty
required fields sends nothing and puts "Agent Name is required." beside the focused field; a new tool's
Category follows its Kind and Record Type offers the record types; deleting a tool names it; leaving an
edited tool asks; the single Settings record has no Delete. In Knowledge, an uploaded file goes from
queued to Indexed and the source's status and counts follow without a reload ("1 piece"), the file
input is cleared after Add, Rebuild finishes visibly, and a search shows the score the server gave; the
input's Pieces show what the index stores (sizes, splitter settings) and other settings can be tried; a
new source searching by meaning shows the vector dimension learnt from the (scripted) embedding model.
A Huf User gets "You can't create tools" at /huf/tools/new, and read-only fields that look read-only.
A new agent starts with the default provider and model of Settings and saves with them; a knowledge source
added to an agent has a visible label on each input and is saved with its row defaults (Mode Optional);
both pages have no serious axe-core finding in the light or the dark theme.
"""

from __future__ import annotations

import tempfile
from pathlib import Path

import frappe

from huf.tests.support.browser import BrowserTestCase, make_e2e_agent, make_todo_list_tool, remove_e2e_agents
from huf.tests.support.knowledge import (
	EMBED_MODEL,
	PROVIDER,
	delete_source,
	make_embedding_provider,
	make_source,
)
from huf.tests.support.llm_server import ScriptedLLM
from huf.tests.support.tools import delete_tools

ADMIN = "e2e-guard-admin@example.com"
READER = "e2e-guard-reader@example.com"
NOTE = "The blender warranty covers the motor for two years."
SPARE_DESCRIPTION = "Finds the open to-dos of a customer."
EMBED_DIMENSION = 48  # what the scripted embedding model returns, learnt by a new source


def remove_records(suffix: str) -> None:
	"""The tools, agents, knowledge source, files and users of this run; committed."""
	frappe.set_user("Administrator")
	frappe.db.rollback()
	delete_tools(
		frappe.get_all("Agent Tool Function", filters={"name": ("like", f"%{suffix}")}, pluck="name")
	)
	for name in frappe.get_all("Knowledge Source", filters={"name": ("like", f"%{suffix}")}, pluck="name"):
		delete_source(name)
	for name in frappe.get_all("File", filters={"owner": ("in", [ADMIN, READER])}, pluck="name"):
		frappe.delete_doc("File", name, force=True, ignore_permissions=True)
	remove_e2e_agents(suffix, ADMIN, READER)
	frappe.delete_doc("AI Provider", PROVIDER, force=True, ignore_permissions=True)
	frappe.db.commit()


class TestEditorSafeguardsInBrowser(BrowserTestCase):
	script = Path(__file__).with_name("editor_safeguards.e2e.mjs")

	@classmethod
	def setUpClass(cls):
		super().setUpClass()
		cls.suffix = cls.own_records(remove_records)
		cls.admin = cls.browser_user(ADMIN, "System Manager", "Huf Manager")
		cls.reader = cls.browser_user(READER, "Huf User")
		cls.attached = cls.make_tool(f"e2e_attached_{cls.suffix}")
		cls.spare = cls.make_tool(f"e2e_spare_{cls.suffix}", SPARE_DESCRIPTION)
		cls.agent = make_e2e_agent("Guard", cls.suffix)
		agent = frappe.get_doc("Agent", cls.agent)
		agent.append("agent_tool", {"tool": cls.attached})
		agent.save(ignore_permissions=True)
		cls.source = make_source(f"E2E Live {cls.suffix}")
		# a source whose last rebuild failed (an empty one: its next rebuild ends Ready at once)
		cls.failed_source = make_source(f"E2E Failed {cls.suffix}")
		frappe.db.set_value(
			"Knowledge Source",
			cls.failed_source,
			{"status": "Error", "index_error": "Rebuild failed, the previous index is kept: no answer"},
		)
		frappe.db.commit()
		cls.llm = cls.enterClassContext(ScriptedLLM())
		cls.llm.embedding_dimension = EMBED_DIMENSION
		make_embedding_provider(cls.llm.api_base)
		frappe.db.commit()
		cls.note = Path(tempfile.mkdtemp()) / "warranty-note.txt"
		cls.note.write_text(NOTE)
		cls.use_agent_defaults(f"E2E Provider {cls.suffix}", f"e2e-model-{cls.suffix}")
		cls.serve()

	@classmethod
	def use_agent_defaults(cls, provider: str, model: str) -> None:
		"""Make `provider` and `model` the site's defaults for new agents until the class is done."""
		before = frappe.db.get_value(
			"Agent Settings", "Agent Settings", ["default_provider", "default_model"], as_dict=True
		)

		def restore():
			frappe.db.rollback()
			frappe.db.set_single_value(
				"Agent Settings",
				{"default_provider": before.default_provider, "default_model": before.default_model},
			)
			frappe.db.commit()

		frappe.db.set_single_value("Agent Settings", {"default_provider": provider, "default_model": model})
		cls.addClassCleanup(restore)

	@staticmethod
	def make_tool(name: str, description: str = "Lists to-dos.") -> str:
		return make_todo_list_tool(name, description)

	def test_unsaved_changes_required_fields_labels_and_live_knowledge(self):
		result = self.run_browser(
			admin=self.admin,
			reader=self.reader,
			agent=self.agent,
			attached=self.attached,
			spare=self.spare,
			spare_description=SPARE_DESCRIPTION,
			source=self.source,
			failed_source=self.failed_source,
			file_path=str(self.note),
			provider=f"E2E Provider {self.suffix}",
			model=f"e2e-model-{self.suffix}",
			new_agent=f"E2E Defaults Agent {self.suffix}",
			vector_source=f"E2E Meaning {self.suffix}",
			embed_provider=PROVIDER,
			embed_model=EMBED_MODEL,
		)

		# an edited agent: a link out (the confirm dialog) and closing the tab both ask; "stay" keeps the edit
		self.assertEqual(
			result["agent_leave_question"],
			{"title": "Unsaved changes", "message": "This agent has unsaved changes. Leave without saving?"},
		)
		self.assertTrue(result["agent_stayed"])
		self.assertEqual(result["agent_description_kept"], "Edited, not saved")
		self.assertEqual(result["unload_dialog"], "beforeunload")
		self.assertFalse(result["page_closed"])
		self.assertEqual(frappe.db.get_value("Agent", self.agent, "description") or "", "")
		# "Enabled", never a "Disabled" switch
		self.assertEqual(result["enabled_switch"], "true")
		self.assertEqual(result["disabled_switches"], 0)
		# the tool picker leaves out the tool the agent already has, shows descriptions, finds tools by
		# words of the description or the name; the tool added shows its description in its row
		self.assertIn(self.spare, result["tool_choices"])
		self.assertNotIn(self.attached, result["tool_choices"])
		self.assertEqual(result["spare_description_shown"], 1)
		self.assertEqual(result["found_by_description"], [self.spare])
		self.assertIn(self.spare, result["found_by_name"])
		self.assertNotIn(self.attached, result["found_by_name"])
		self.assertEqual(result["no_match"], 'No tool matches "no tool is called this".')
		self.assertTrue(result["added_row_description"])
		self.assertEqual(result["focus_after_add"], "search")
		# the tools that act without an approver: named above the list, marked in their rows; Always on a
		# row makes its calls wait for approval, and the mark goes
		later = "Set Requires approval to Always to have each call approved first."
		self.assertEqual(result["unapproved_note"], f"1 tool acts without approval: {self.attached}. {later}")
		self.assertEqual(result["attached_badges"], 1)
		self.assertEqual(
			result["unapproved_after_add"],
			f"2 tools act without approval: {self.attached}, {self.spare}. {later}",
		)
		self.assertEqual(result["attached_badges_always"], 0)
		self.assertEqual(
			result["unapproved_after_always"], f"1 tool acts without approval: {self.spare}. {later}"
		)
		rows = {r.tool: r.requires_approval for r in frappe.get_doc("Agent", self.agent).agent_tool}
		self.assertEqual(rows[self.attached], "Always")
		# Ctrl+S saved the agent with it (the browser's Save kept away); pressed again, nothing to save
		self.assertTrue(result["save_key_prevented"])
		self.assertEqual(result["agent_puts"], 1)
		self.assertEqual(
			sorted(r.tool for r in frappe.get_doc("Agent", self.agent).agent_tool),
			sorted([self.attached, self.spare]),
		)
		self.assertEqual(result["asked_after_save"], 0)

		# empty required fields are flagged in the form; nothing is sent
		self.assertEqual(result["required_message"], "Agent Name is required.")
		self.assertEqual(result["focused"], "agent-agent_name")
		self.assertEqual(result["agent_posts"], 0)
		self.assertTrue(result["still_new"])

		# a new agent starts with the default provider and model and saves with them
		provider, model = f"E2E Provider {self.suffix}", f"e2e-model-{self.suffix}"
		self.assertEqual((result["new_agent_provider"], result["new_agent_model"]), (provider, model))
		self.assertTrue(result["new_agent_saved"], result["new_agent_error"])
		self.assertEqual(
			frappe.db.get_value(
				"Agent", {"agent_name": f"E2E Defaults Agent {self.suffix}"}, ["provider", "model"]
			),
			(provider, model),
		)

		# a new tool: the category follows the kind, record types are offered, required fields flagged;
		# Requires approval starts on for the kinds that delete records or send outside the site
		self.assertEqual(
			result["new_tool_approval"], {"Delete Document": "true", "POST": "true", "Get List": "false"}
		)
		self.assertEqual(result["category_after_kind"], "Document Operations")
		self.assertIn("ToDo", result["record_type_choices"])
		self.assertEqual(result["tool_required_message"], "Description is required.")
		# deleting asks in the confirm dialog: named, modal, focus on Cancel and kept inside (Tab wraps),
		# the Delete button red; Escape cancels and gives focus back
		self.assertEqual(
			result["delete_question"],
			{"title": f'Delete tool "{self.attached}"?', "message": "This can't be undone."},
		)
		self.assertEqual(result["confirm_focus"], ["Cancel", "Delete", "Cancel", "Delete", "Cancel"])
		self.assertEqual(result["confirm_modal"], "true")
		self.assertEqual(result["confirm_danger"], "rgb(220, 38, 38)")
		self.assertEqual(result["focus_after_escape"], "Delete")
		self.assertTrue(result["tool_after_escape"])
		self.assertTrue(frappe.db.exists("Agent Tool Function", self.attached))
		# leaving an edited tool asks; Ctrl+S saved it
		self.assertEqual(
			result["tool_leave_question"], "This tool has unsaved changes. Leave without saving?"
		)
		self.assertTrue(result["tool_saved_by_key"])
		self.assertEqual(
			frappe.db.get_value("Agent Tool Function", self.attached, "description"), "Changed here"
		)
		# the single Settings record cannot be deleted, so no Delete button
		self.assertTrue(result["settings_shown"])
		self.assertEqual(result["settings_delete_buttons"], 0)

		# knowledge: statuses and counts follow the background jobs without a reload
		self.assertEqual(result["input_status"], "Indexed")
		self.assertIn("1 piece ·", result["input_meta"])
		self.assertEqual(result["file_input_after_add"], 0)
		self.assertIn("Ready", result["source_status"])
		self.assertIn("1 piece indexed", result["source_status"])
		self.assertNotEqual(result["indexed_before_rebuild"], result["indexed_after_rebuild"])
		self.assertIn("Ready", result["indexed_after_rebuild"])
		# a failed source rebuilt: never "Rebuilding" beside the earlier failure, Ready in the page and the
		# list within ~2 s (live events), the failure gone
		self.assertIn("Error", result["failed_before"])
		self.assertIn("Error", result["failed_list_before"])
		for seen in result["failed_seen"]:
			self.assertFalse("Rebuilding" in seen and "failed" in seen, result["failed_seen"])
		self.assertLess(result["failed_ready_ms"], 2500, result["failed_seen"])
		self.assertIn("Ready", result["failed_after"])
		self.assertNotIn("failed", result["failed_after"])
		self.assertIn("Ready", result["failed_list_after"])
		# the score shown is the one the search returned
		score = result["server_score"]
		self.assertIsNotNone(score)
		shown = float(result["shown_score"].removeprefix("Score "))
		self.assertAlmostEqual(shown, score, delta=max(abs(score) * 0.05, 0.0005))
		self.assertNotEqual(result["shown_score"], "Score 0.000")
		# the input's pieces as the index stores them, with sizes and settings; a preview with other settings
		self.assertEqual(
			result["pieces_settings"],
			"SentenceSplitter · pieces of at most 512 tokens, 50 overlapping · 1 piece",
		)
		self.assertEqual(len(result["pieces"]), 1)
		self.assertIn(f"Piece 1 · {len(NOTE)} characters · ", result["pieces"][0])
		self.assertIn(NOTE, result["pieces"][0])
		self.assertTrue(
			result["preview_settings"].startswith("SentenceSplitter · pieces of at most 8 tokens, 0")
		)
		self.assertGreater(result["preview_pieces"], 1)
		self.assertEqual(frappe.db.get_value("Knowledge Source", self.source, "chunk_size"), 512)
		self.assertLessEqual(result["axe"]["05a-knowledge-pieces-375"]["overflow"], 0)
		# a source searching by meaning: the dimension is shown read-only, learnt from the model on save
		self.assertTrue(result["dimension_readonly_new"])
		self.assertTrue(result["dimension_readonly"])
		self.assertEqual(result["dimension_shown"], str(EMBED_DIMENSION))
		self.assertEqual(
			frappe.db.get_value("Knowledge Source", f"E2E Meaning {self.suffix}", "vector_dimension"),
			EMBED_DIMENSION,
		)
		self.assertLessEqual(result["axe"]["05c-knowledge-dimension-375"]["overflow"], 0)

		# a knowledge row: every input has a visible label and a name, the record holds what is shown
		self.assertEqual(
			result["knowledge_inputs"],
			[
				{"label": "Mode", "value": "Optional"},
				{"label": "Priority", "value": "0"},
				{"label": "Token budget", "value": ""},
			],
		)
		self.assertEqual(result["knowledge_named"], {"Mode": "Optional", "Priority": "0", "Token budget": ""})
		self.assertEqual(result["knowledge_save"], "Saved.")
		rows = frappe.get_all(
			"Agent Knowledge",
			filters={"parent": self.agent, "knowledge_source": self.source},
			fields=["mode", "priority", "token_budget"],
		)
		self.assertEqual([(r.mode, r.priority, r.token_budget) for r in rows], [("Optional", 2, 1500)])

		# no serious or critical axe-core finding, light and dark
		for name in (
			"00-leave-agent-1280",
			"00-leave-agent-375",
			"01-tool-picker-1280",
			"01-tool-picker-375",
			"03b-confirm-delete-1280",
			"03b-confirm-delete-375",
			"02b-new-agent-defaults",
			"05a-knowledge-pieces-1280",
			"05a-knowledge-pieces-375",
			"05c-knowledge-dimension-1280",
			"05c-knowledge-dimension-375",
			"05b-agent-knowledge",
		):
			self.assertEqual(result["axe"][name]["light"], [], name)
			self.assertEqual(result["axe"][name]["dark"], [], name)

		# a Huf User: told plainly at /tools/new; read-only fields look read-only
		self.assertEqual(result["reader_new_tool"], "You can't create tools")
		self.assertEqual(result["reader_form_fields"], 0)
		self.assertTrue(result["reader_readonly"])
		self.assertNotEqual(result["reader_field_background"], result["admin_field_background"])
		self.assertEqual(result["console_errors"], [])
