import frappe
from frappe import _
from frappe.model.document import Document

from huf.huf.engine_owned import engine_write


class AgentConsole(Document):
	# begin: auto-generated types
	# This code is auto-generated. Do not modify anything in this block.

	from typing import TYPE_CHECKING

	if TYPE_CHECKING:
		from frappe.types import DF

		agent_name: DF.Link | None
		model: DF.Data | None
		prompt: DF.Code | None
		provider: DF.Data | None
		response: DF.Code | None
	# end: auto-generated types

	def validate(self) -> None:
		if self.agent_name:
			self.provider, self.model = frappe.db.get_value(
				"Agent", self.agent_name, ["provider", "model"]
			) or (None, None)
		else:
			self.provider = self.model = None

	@frappe.whitelist(methods=["POST"])
	def run(self) -> dict:
		"""Run the prompt on the agent now (as `run_agent_sync(now=1)`) and store the response."""
		from huf.ai.runtime import front_door
		from huf.ai.runtime.run_request import RunRequest

		self.check_permission("write")
		if not self.agent_name:
			frappe.throw(_("Choose an agent first."))
		if not (self.prompt or "").strip():
			frappe.throw(_("Write a prompt first."))
		request = RunRequest(self.agent_name, self.prompt, channel="agent_console", now=True)
		result = front_door.start(request).as_response()
		if result.get("success"):
			self.response = result.get("response") or ""
		else:
			self.response = ""
			frappe.msgprint(
				result.get("error") or _("The agent run failed."),
				title=_("Agent run failed"),
				indicator="red",
			)
		engine_write(self).save()  # the response is read-only: only the run writes it
		return result
