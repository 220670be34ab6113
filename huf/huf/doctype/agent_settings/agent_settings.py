import frappe
from frappe.model.document import Document
from frappe.utils import cint, now_datetime

from huf.huf.validators import validate_model_of_provider


class AgentSettings(Document):
	# begin: auto-generated types
	# This code is auto-generated. Do not modify anything in this block.

	from typing import TYPE_CHECKING

	if TYPE_CHECKING:
		from frappe.types import DF

		default_model: DF.Link | None
		default_provider: DF.Link | None
		pause_all_runs: DF.Check
		paused_at: DF.Datetime | None
		paused_by: DF.Link | None
		tool_sync_state: DF.JSON | None
	# end: auto-generated types

	def validate(self) -> None:
		if self.default_provider and self.default_model:
			validate_model_of_provider(self.default_model, self.default_provider)
		self.note_pause()

	def on_change(self) -> None:
		from huf.ai.runtime import budgets

		budgets.clear_guard()  # Pause All Runs: every process's next check reads it anew

	def note_pause(self) -> None:
		"""Who ticked Pause All Runs and when (kept while it stays ticked, cleared when it is unticked)."""
		before = self.get_doc_before_save()
		was_paused = bool(before and cint(before.get("pause_all_runs")))
		if cint(self.pause_all_runs) and not was_paused:
			self.paused_by, self.paused_at = frappe.session.user, now_datetime()
		elif not cint(self.pause_all_runs):
			self.paused_by, self.paused_at = None, None


def sole_name(doctype: str, filters: dict | None = None, ignore_permissions: bool = False) -> str | None:
	"""The name of the only `doctype` record (matching `filters`) the user may read (with
	`ignore_permissions`: the only one there is), else None."""
	names = frappe.get_list(
		doctype, filters=filters, pluck="name", limit=2, ignore_permissions=ignore_permissions
	)
	return names[0] if len(names) == 1 else None


def new_agent_defaults() -> dict:
	"""The provider and model a new agent starts with: the Agent Settings defaults, else the only
	provider (and the only model of the provider) the user may read; "" for none."""
	settings = frappe.get_single("Agent Settings")
	provider, model = settings.default_provider or None, settings.default_model or None
	if provider and not frappe.db.exists("AI Provider", provider):
		provider = None
	model_provider = frappe.db.get_value("AI Model", model, "provider") if model else None
	provider = provider or model_provider or sole_name("AI Provider")
	if not model_provider or model_provider != provider:
		model = sole_name("AI Model", {"provider": provider}) if provider else None
	return {"provider": provider or "", "model": model or ""}
