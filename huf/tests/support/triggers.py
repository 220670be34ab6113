"""Test fixtures of Agent Triggers: committed triggers and documents (deleted after the test), their runs,
webhook calls over real HTTP."""

import frappe
import httpx
from frappe.utils.password import get_decrypted_password

from huf.tests.support.jobs import wait_for_jobs
from huf.tests.support.web import serve_site


class TriggerTestHelpers:
	"""Committed triggers and ToDos (deleted after the test), their runs, webhook calls over HTTP."""

	def make_trigger(self, **values) -> str:
		doc = frappe.get_doc({"doctype": "Agent Trigger", "agent": self.agent, **values}).insert()
		frappe.db.commit()
		self.addCleanup(self.delete, "Agent Trigger", doc.name)
		return doc.name

	def delete(self, doctype: str, name: str) -> None:
		frappe.db.rollback()
		if doctype == "Agent Trigger":
			frappe.db.delete("Agent Run", {"agent_trigger": name})
		if frappe.db.exists(doctype, name):
			frappe.delete_doc(doctype, name, force=True, ignore_permissions=True)
		frappe.db.commit()

	def make_todo(self, **values) -> str:
		doc = frappe.get_doc({"doctype": "ToDo", "description": "Refund order 7731", **values}).insert()
		frappe.db.commit()
		self.addCleanup(self.delete, "ToDo", doc.name)
		return doc.name

	def make_record(self, doctype: str, **values) -> str:
		"""A committed document of `doctype` (deleted after the test)."""
		doc = frappe.get_doc({"doctype": doctype, **values}).insert()
		frappe.db.commit()
		self.addCleanup(self.delete, doctype, doc.name)
		return doc.name

	def make_file(self, file_name: str, content: bytes) -> object:
		"""A committed private File owned by the session user, attached to nothing (deleted after the test)."""
		from huf.ai.media.common import new_file

		file_doc = new_file(file_name, content)
		frappe.db.commit()
		self.addCleanup(self.delete, "File", file_doc.name)
		return file_doc

	def runs_of(self, trigger: str) -> list:
		wait_for_jobs(60)
		return frappe.get_all(
			"Agent Run",
			filters={"agent_trigger": trigger},
			fields=[
				"name",
				"status",
				"prompt",
				"reference_doctype",
				"reference_name",
				"error_message",
				"user",
				"owner",
			],
			order_by="creation asc",
		)

	def call_webhook(self, trigger: str, payload: dict):
		"""POST `payload` to the trigger's webhook with its key, over HTTP."""
		slug = frappe.db.get_value("Agent Trigger", trigger, "webhook_slug")
		key = get_decrypted_password("Agent Trigger", trigger, "webhook_key")
		server, base_url = serve_site()
		self.addCleanup(server.shutdown)
		with httpx.Client(timeout=60) as client:
			return client.post(
				f"{base_url}/api/method/huf.api.triggers.handle_webhook",
				json={"slug": slug, **payload},
				headers={"X-Huf-Webhook-Key": key},
			)

	def trigger_state(self, trigger: str) -> dict:
		frappe.db.commit()
		return frappe.db.get_value("Agent Trigger", trigger, ["disabled", "disabled_reason"], as_dict=True)
