from frappe.model.document import Document


class AgentContextArtifact(Document):
	# begin: auto-generated types
	# This code is auto-generated. Do not modify anything in this block.

	from typing import TYPE_CHECKING

	if TYPE_CHECKING:
		from frappe.types import DF

		agent_run: DF.Link | None
		artifact_type: DF.Literal["Tool Result", "Document Snapshot", "Retrieval", "Summary", "File", "Other"]
		context_policy: DF.Literal[
			"include_full",
			"include_summary",
			"include_reference",
			"include_on_demand",
			"exclude",
			"transient_only",
		]
		conversation: DF.Link | None
		expires_on: DF.Datetime | None
		payload_file: DF.Attach | None
		payload_json: DF.Code | None
		reference_doctype: DF.Link | None
		reference_name: DF.DynamicLink | None
		summary: DF.SmallText | None
		token_estimate: DF.Int
		visibility: DF.Literal["user_visible", "model_visible", "ui_only", "audit_only"]
	# end: auto-generated types

	pass
