import json
import re

import frappe
from frappe import _
from frappe.model.document import Document
from frappe.utils import cint, escape_html, now_datetime

from huf.ai.flows.nodes import config_problems
from huf.ai.flows.schedules import settle_one_shots
from huf.huf.flow_schema import entry_node_id, flow_errors

TRIGGER_NODE_TYPES = ("trigger.webhook", "trigger.schedule", "trigger.doc-event", "trigger.app-event")
# What decides what a triggered run does: only the user it acts as, or a System Manager, may change it.
RUN_DEFINING_FIELDS = ("definition_json", "run_as", "owner", "status")

FLOW_ID_PATTERN = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_-]{0,139}$")


class FlowDefinition(Document):
	# begin: auto-generated types
	# This code is auto-generated. Do not modify anything in this block.

	from typing import TYPE_CHECKING

	if TYPE_CHECKING:
		from frappe.types import DF

		category: DF.Data | None
		definition_json: DF.JSON
		description: DF.SmallText | None
		flow_id: DF.Data
		flow_name: DF.Data
		is_system: DF.Check
		run_as: DF.Link | None
		schema_version: DF.Int
		status: DF.Literal["Draft", "Active", "Archived"]
		trigger_state: DF.JSON | None
		updated_at: DF.Datetime | None
		updated_by: DF.Link | None
		version: DF.Int
		webhook_key: DF.Password | None
	# end: auto-generated types

	def validate(self) -> None:
		self.flow_id = (self.flow_id or "").strip()
		if not FLOW_ID_PATTERN.match(self.flow_id):
			frappe.throw(_("Flow ID may contain only letters, digits, - and _."))
		definition = self.get_definition()
		settle_one_shots(definition)  # a schedule's in_minutes becomes its `at`
		errors = flow_errors(definition, self.flow_id) + [p["message"] for p in config_problems(definition)]
		if errors:
			frappe.throw(
				_("The flow definition is not valid:")
				+ "<ul>"
				+ "".join(f"<li>{escape_html(e)}</li>" for e in errors)
				+ "</ul>",
				title=_("Invalid Flow"),
			)
		if self.status == "Active" and not definition.get("nodes"):
			frappe.throw(_("Flow {0} has no steps: add some before making it Active.").format(self.flow_id))
		self.schema_version = cint(definition.get("schema_version")) or 1
		self.definition_json = json.dumps(definition, indent=1)
		self.validate_run_as()
		if not self.webhook_key:
			# A Password field: stored encrypted, revealed once (flow_api), never in the form again.
			self.webhook_key = frappe.generate_hash(length=40)
		self.updated_by = frappe.session.user
		self.updated_at = now_datetime()

	def validate_run_as(self) -> None:
		"""Triggered runs act as Run As, else the owner: only a System Manager may make that anyone but the
		editor, and only that user or a System Manager may change what such runs do."""
		if "System Manager" in frappe.get_roles():
			return
		editor = frappe.session.user
		before = self.get_doc_before_save()
		if before and before.owner != self.owner:
			frappe.throw(
				_("Only a System Manager may change the owner of a Flow Definition."), frappe.PermissionError
			)
		if self.run_as and self.run_as != editor and (not before or before.run_as != self.run_as):
			frappe.throw(
				_(
					"Only a System Manager may set Run As to another user ({0}). Leave it empty: the triggered"
					" runs of your flows act as you."
				).format(self.run_as),
				frappe.PermissionError,
			)
		acting = self.run_as or self.owner or editor
		if not before or acting == editor or not (is_triggered(self) or is_triggered(before)):
			return
		if [f for f in RUN_DEFINING_FIELDS if _comparable(before, f) != _comparable(self, f)]:
			frappe.throw(
				_(
					"The triggered runs of flow {0} act as {1}: only {1} or a System Manager may change its"
					" definition, status or Run As."
				).format(self.name, acting),
				frappe.PermissionError,
			)

	def before_save(self) -> None:
		before = self.get_doc_before_save()
		self.version = cint(before.version if before else 0) + 1

	def get_definition(self) -> dict:
		"""definition_json parsed (throws a clear message when it is not JSON)."""
		value = self.definition_json
		if isinstance(value, str):
			try:
				value = json.loads(value)
			except ValueError as e:
				frappe.throw(_("Definition JSON is not valid JSON: {0}").format(e))
		if not isinstance(value, dict):
			frappe.throw(_("Definition JSON must be a JSON object with nodes and edges."))
		return value


def is_triggered(flow: Document) -> bool:
	"""Whether runs of `flow` start without a person (its entry node is a webhook, schedule or doc-event trigger)."""
	try:
		definition = flow.get_definition()
	except frappe.ValidationError:
		return False
	entry = entry_node_id(definition)
	return any(
		n.get("id") == entry and n.get("type") in TRIGGER_NODE_TYPES
		for n in definition.get("nodes") or []
		if isinstance(n, dict)
	)


def _comparable(doc: Document, fieldname: str):
	value = doc.get(fieldname)
	if fieldname == "definition_json" and isinstance(value, str):
		try:
			return json.loads(value)
		except ValueError:
			return value
	return value
