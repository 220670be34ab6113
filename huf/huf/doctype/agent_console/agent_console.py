import frappe
from frappe import _
from frappe.model.document import Document

from huf.huf.engine_owned import engine_write


class AgentConsole(Document):
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
		from huf.ai.runtime.runs import start_run

		self.check_permission("write")
		if not self.agent_name:
			frappe.throw(_("Choose an agent first."))
		if not (self.prompt or "").strip():
			frappe.throw(_("Write a prompt first."))
		result = start_run(self.agent_name, self.prompt, channel_id="agent_console", now=1)
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


@frappe.whitelist(methods=["POST"])
def run_console(agent_name: str | None = None, prompt: str | None = None) -> dict:
	"""Set the console's agent and prompt (when given), run it and store the response."""
	console = frappe.get_single("Agent Console")
	if agent_name:
		console.agent_name = agent_name
	if prompt is not None:
		console.prompt = prompt
	return console.run()
