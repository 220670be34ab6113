import json
import re

import frappe
from frappe import _
from frappe.model.document import Document
from frappe.utils import cint, escape_html, now_datetime

from huf.huf.doctype.flow_definition.flow_schema import flow_errors

FLOW_ID_PATTERN = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_-]{0,139}$")


class FlowDefinition(Document):
	def validate(self) -> None:
		self.flow_id = (self.flow_id or "").strip()
		if not FLOW_ID_PATTERN.match(self.flow_id):
			frappe.throw(_("Flow ID may contain only letters, digits, - and _."))
		definition = self.get_definition()
		errors = flow_errors(definition, self.flow_id)
		if errors:
			frappe.throw(
				_("The flow definition is not valid:")
				+ "<ul>"
				+ "".join(f"<li>{escape_html(e)}</li>" for e in errors)
				+ "</ul>",
				title=_("Invalid Flow"),
			)
		self.schema_version = cint(definition.get("schema_version")) or 1
		self.definition_json = json.dumps(definition, indent=1)
		self.updated_by = frappe.session.user
		self.updated_at = now_datetime()

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
