"""Lists beside a form (Providers, Models, MCP servers, Knowledge) in a real headless Chromium.

Runs `master_detail.e2e.mjs`: choosing another provider while the form has unsaved edits asks "This
provider has unsaved changes. Leave without saving?" (not when nothing was edited); Cancel keeps the
provider and the typed value, OK shows the other one and nothing is saved; New knowledge source asks the
same of an edited source. A knowledge file upload shows a progress bar that reaches 100%; a source whose
input is still pending shows "0 of 1 input" indexed, and after Retry the input is indexed and the bar goes.
"""

from __future__ import annotations

import tempfile
from pathlib import Path
from urllib.parse import quote

import frappe

from huf.tests.support.browser import BrowserTestCase
from huf.tests.support.knowledge import delete_source, make_source

USER = "e2e-master-detail@example.com"
FILE_NAME = "field-notes.txt"


def remove_records(suffix: str) -> None:
	"""The providers, knowledge sources (with their inputs), files and user of this run; committed."""
	frappe.set_user("Administrator")
	frappe.db.rollback()
	for name in frappe.get_all("Knowledge Source", filters={"name": ("like", f"%{suffix}")}, pluck="name"):
		delete_source(name)
	for name in frappe.get_all("File", filters={"owner": USER}, pluck="name"):
		frappe.delete_doc("File", name, force=True, ignore_permissions=True)
	for name in frappe.get_all("AI Provider", filters={"name": ("like", f"%{suffix}")}, pluck="name"):
		frappe.delete_doc("AI Provider", name, force=True, ignore_permissions=True)
	if frappe.db.exists("User", USER):
		frappe.delete_doc("User", USER, force=True, ignore_permissions=True)
	frappe.db.commit()


def pending_input(source: str, text: str) -> str:
	"""A Text input stored as Pending whose indexing job never ran (as when no worker was running)."""
	doc = frappe.get_doc(
		{
			"doctype": "Knowledge Input",
			"knowledge_source": source,
			"input_type": "Text",
			"title": "Warranty",
			"text": text,
			"status": "Pending",
		}
	)
	doc.set_new_name()
	doc.db_insert()  # no after_insert: nothing is queued
	return doc.name


class TestMasterDetailInBrowser(BrowserTestCase):
	script = Path(__file__).with_name("master_detail.e2e.mjs")

	@classmethod
	def setUpClass(cls):
		super().setUpClass()
		cls.suffix = cls.own_records(remove_records)
		cls.login = cls.browser_user(USER, "System Manager")
		cls.providers = []
		for label in ("A", "B"):
			provider = frappe.get_doc(
				{
					"doctype": "AI Provider",
					"provider_name": f"E2E Guard {label} {cls.suffix}",
					"api_base": f"http://127.0.0.1:9/{label.lower()}",
				}
			).insert(ignore_permissions=True)
			cls.providers.append(provider.name)
		cls.source = make_source(f"E2E Guard Source {cls.suffix}")
		cls.pending = make_source(f"E2E Guard Pending {cls.suffix}")
		cls.pending_input = pending_input(cls.pending, "The warranty lasts two years.")
		cls.file = Path(tempfile.mkdtemp()) / FILE_NAME
		# large enough for the browser to report the upload as it goes
		cls.file.write_text(
			"".join(f"Field note {i}: the pump at station {i % 40} was checked.\n" for i in range(6000))
		)
		cls.serve()

	def test_selection_guard_upload_and_indexing_progress(self):
		result = self.run_browser(
			user=self.login,
			providers=self.providers,
			source=self.source,
			pending=self.pending,
			file_path=str(self.file),
			file_name=FILE_NAME,
		)
		a, b = self.providers

		# the guard: no question without edits; Cancel keeps the record and the edit; OK moves on
		self.assertEqual(result["dialogs_without_edits"], 0)
		self.assertEqual(result["dialogs"][0], "This provider has unsaved changes. Leave without saving?")
		self.assertEqual(
			result["provider_after_cancel"],
			{"selected": a, "heading": a, "base_url": "http://127.0.0.1:9/edited"},
		)
		self.assertEqual(result["provider_after_ok"], {"selected": b, "base_url": "http://127.0.0.1:9/b"})
		frappe.set_user("Administrator")
		self.assertEqual(frappe.db.get_value("AI Provider", a, "api_base"), "http://127.0.0.1:9/a")
		self.assertIn("This knowledge source has unsaved changes", result["dialogs"][2])
		self.assertEqual(result["knowledge_after_cancel"]["description"], "Edited, not saved")
		self.assertEqual(result["knowledge_after_cancel"]["path"], f"/huf/knowledge/{quote(self.source)}")
		self.assertEqual(result["knowledge_after_ok"], "/huf/knowledge/new")
		self.assertEqual(len(result["dialogs"]), 4, result["dialogs"])

		# the upload's bar went up to 100% and went away with the upload
		uploads = [
			int(bar["value"]) for bar in result["upload_bars"] if bar["label"] == f"Uploading {FILE_NAME}"
		]
		self.assertEqual(uploads[-1], 100, result["upload_bars"])
		self.assertEqual(uploads, sorted(uploads), "the percent only grows")
		self.assertEqual(result["bars_after_upload"], 0)
		stored = frappe.get_all(
			"Knowledge Input", filters={"knowledge_source": self.source}, fields=["title", "status"]
		)
		self.assertEqual([(r.title, r.status) for r in stored], [(FILE_NAME, "Indexed")])

		# indexing progress of the pending input, gone once Retry indexed it
		self.assertEqual(
			result["pending_bar"],
			{"label": "Indexing", "value": "0", "text": "0% · 0 of 1 input · 0 pieces so far"},
		)
		self.assertIn("1 piece indexed", result["pending_after_retry"])
		self.assertEqual(frappe.db.get_value("Knowledge Input", self.pending_input, "status"), "Indexed")
		self.assertEqual(result["console_errors"], [])
