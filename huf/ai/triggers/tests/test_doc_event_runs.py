"""Doc Event runs: file attachments as model content, Persist per User, Run Triggers in Background, and
the 30-second duplicate lock, end to end with the scripted LLM."""

import base64
import hashlib
import json

import frappe

from huf.tests.support.jobs import wait_until
from huf.tests.support.llm_server import Reply
from huf.tests.support.runs import RuntimeTestCase, set_agent_values
from huf.tests.support.sample_files import PNG, make_pdf
from huf.tests.support.triggers import TriggerTestHelpers

AGENT = "Doc Event Run Agent"
SAVER = "doc-event-run-saver@example.com"  # another user who saves documents
DOSSIER = "Lite Test Dossier"  # lite_test_app: an Attach field and a table of Attach rows


class TestDocEventRuns(TriggerTestHelpers, RuntimeTestCase):
	users = ((SAVER, ("System Manager",)),)  # may create ToDos on a bench too

	def setUp(self):
		super().setUp()
		self.agent = self.make_agent(AGENT)

	def doc_trigger(self, doctype: str = "ToDo", event: str = "after_insert", **values) -> str:
		return self.make_trigger(
			trigger_type="Doc Event", reference_doctype=doctype, doc_event=event, **values
		)

	def user_message(self, request: dict) -> dict:
		return [m for m in request["body"]["messages"] if m["role"] == "user"][-1]

	def test_a_pdf_and_an_image_reach_the_model_as_text_and_image(self):
		tag = frappe.generate_hash(length=6)
		pdf = make_pdf(["Deliver 40 chairs to hall B."])
		brief = self.make_file(f"brief-{tag}.pdf", pdf)
		photo = self.make_file(f"photo-{tag}.png", PNG)
		trigger = self.doc_trigger(
			DOSSIER,
			file_attachments=[
				{"source_type": "Field", "field_name": "document"},
				{"source_type": "Child Table", "child_table": "photos", "field_name": "file"},
			],
		)
		self.llm.queue("Chairs noted.")

		self.make_record(DOSSIER, title="Hall B", document=brief.file_url, photos=[{"file": photo.file_url}])

		runs = self.runs_of(trigger)
		self.assertEqual([run.status for run in runs], ["Success"], runs)
		content = self.user_message(self.llm.chat_requests[-1])["content"]
		self.assertIsInstance(content, list)
		text = content[0]["text"]
		self.assertIn("## Attached File Content\n", text)
		self.assertIn(f"### {brief.file_name} (PDF, sha256: {hashlib.sha256(pdf).hexdigest()})", text)
		self.assertIn("Deliver 40 chairs to hall B.", text)
		self.assertEqual(
			content[1],
			{
				"type": "image_url",
				"image_url": {"url": "data:image/png;base64," + base64.b64encode(PNG).decode()},
			},
		)
		# the conversation keeps what the user would read: the prompt and the file names
		stored = frappe.get_all(
			"Agent Message", filters={"agent_run": runs[0].name, "role": "user"}, pluck="content"
		)
		self.assertEqual(len(stored), 1)
		self.assertIn(f"Attached files: {brief.file_name}, {photo.file_name}", stored[0])
		self.assertNotIn("Deliver 40 chairs", stored[0])
		self.assertNotIn("/private/", stored[0].split("Attached files:")[1])  # names, not paths

	def test_the_files_are_those_the_document_holds_when_the_run_starts(self):
		tag = frappe.generate_hash(length=6)
		old = self.make_file(f"old-terms-{tag}.txt", b"Payment within 90 days.")
		new = self.make_file(f"new-terms-{tag}.txt", b"Payment within 30 days.")
		trigger = self.doc_trigger(
			DOSSIER, file_attachments=[{"source_type": "Field", "field_name": "document"}]
		)

		dossier = frappe.get_doc({"doctype": DOSSIER, "title": "Terms", "document": old.file_url}).insert()
		frappe.db.set_value(DOSSIER, dossier.name, "document", new.file_url)  # changed before the commit
		frappe.db.commit()
		self.addCleanup(self.delete, DOSSIER, dossier.name)

		self.assertEqual(len(self.runs_of(trigger)), 1)
		sent = self.user_message(self.llm.chat_requests[-1])["content"]
		self.assertIn(f"### {new.file_name}", sent)
		self.assertIn("Payment within 30 days.", sent)
		self.assertNotIn("Payment within 90 days.", sent)

	def test_without_background_the_save_waits_for_the_answer(self):
		trigger = self.doc_trigger()
		self.llm.queue(Reply(content="Noted.", delay=1))

		self.make_todo()

		# no waiting for jobs: the save's commit ran the agent
		answered = frappe.get_all(
			"Agent Run", filters={"agent_trigger": trigger}, fields=["status", "response"]
		)
		self.assertEqual([(run.status, run.response) for run in answered], [("Success", "Noted.")])

		# the agent fails: the save stands, the error is logged with the document
		self.llm.default = Reply(status=400, error="scripted model failure")
		self.addCleanup(setattr, self.llm, "default", Reply(content="OK"))
		failing = self.make_todo(description="Refund order 7732")
		self.assertTrue(frappe.db.exists("ToDo", failing))
		run = frappe.get_all(
			"Agent Run", filters={"agent_trigger": trigger, "reference_name": failing}, fields=["status"]
		)
		self.assertEqual([r.status for r in run], ["Failed"])
		logged = frappe.get_all(
			"Error Log", filters={"reference_doctype": "ToDo", "reference_name": failing}, pluck="error"
		)
		self.assertTrue(any("could not answer" in (error or "") for error in logged), logged)
		frappe.db.delete("Error Log", {"reference_doctype": "ToDo", "reference_name": failing})
		frappe.db.commit()

	def test_in_background_the_save_returns_before_the_answer(self):
		set_agent_values(self.agent, {"async": 1})
		trigger = self.doc_trigger()
		self.llm.queue(Reply(content="Answered later.", delay=4))

		self.make_todo()

		statuses = frappe.get_all("Agent Run", filters={"agent_trigger": trigger}, pluck="status")
		self.assertNotIn("Success", statuses)  # the save did not wait for the model
		wait_until(
			lambda: frappe.get_all("Agent Run", filters={"agent_trigger": trigger, "status": "Success"}),
			timeout=120,
			message="the queued run did not finish",
		)
		self.assertEqual(
			frappe.get_all("Agent Run", filters={"agent_trigger": trigger}, pluck="response"),
			["Answered later."],
		)

	def test_a_double_save_runs_the_agent_once(self):
		trigger = self.doc_trigger(event="on_update")
		todo = self.make_todo()
		doc = frappe.get_doc("ToDo", todo)
		doc.description = "Refund order 7731 today"
		doc.save()
		frappe.db.commit()  # the second save of the same document within 30 seconds
		other = self.make_todo()  # another document runs on its own

		runs = self.runs_of(trigger)
		self.assertEqual(sorted(run.reference_name for run in runs), sorted([todo, other]))
		self.assertTrue(all(run.status == "Success" for run in runs), runs)

	def test_persist_per_user_keeps_a_history_per_user_else_one_shared(self):
		set_agent_values(self.agent, {"persist_conversation": 1})
		trigger = self.doc_trigger()

		self.make_todo(description="Alpha from the administrator")
		with self.set_user(SAVER):
			self.make_todo(description="Bravo from the saver")
		per_user = self.runs_of(trigger)
		self.assertEqual(len(per_user), 2)
		self.assertEqual(
			[self.session_of(run.name) for run in per_user],
			["trigger:user:Administrator", f"trigger:user:{SAVER}"],
		)
		self.assertNotIn("Alpha", json.dumps(self.llm.chat_requests[-1]["body"]["messages"]))

		set_agent_values(self.agent, {"persist_user_history": 0})
		self.make_todo(description="Charlie from the administrator")
		with self.set_user(SAVER):
			self.make_todo(description="Delta from the saver")
		shared = self.runs_of(trigger)[2:]
		self.assertEqual([self.session_of(run.name) for run in shared], [f"trigger:shared:{AGENT}"] * 2)
		self.assertEqual(
			len({frappe.db.get_value("Agent Run", run.name, "conversation") for run in shared}), 1
		)
		self.assertIn("Charlie", json.dumps(self.llm.chat_requests[-1]["body"]["messages"]))
		for run in per_user + shared:
			self.assertEqual((run.status, run.user), ("Success", "Administrator"))  # the trigger's owner

	def session_of(self, run: str) -> str:
		conversation = frappe.db.get_value("Agent Run", run, "conversation")
		return frappe.db.get_value("Agent Conversation", conversation, "session_id")
