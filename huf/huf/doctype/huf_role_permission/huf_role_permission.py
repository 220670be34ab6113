from frappe.model.document import Document


class HufRolePermission(Document):
	# begin: auto-generated types
	# This code is auto-generated. Do not modify anything in this block.

	from typing import TYPE_CHECKING

	if TYPE_CHECKING:
		from frappe.types import DF

		capability: DF.Literal[
			"agent.view",
			"agent.use",
			"agent.create",
			"agent.edit",
			"agent.delete",
			"agent.view_all",
			"chat.use",
			"chat.view_own",
			"chat.view_all",
			"knowledge.use",
			"knowledge.create",
			"knowledge.manage",
			"tools.use",
			"tools.create",
			"tools.manage",
			"tools.approve",
			"flows.use",
			"flows.create",
			"flows.manage",
			"system.providers.manage",
			"system.models.manage",
			"system.mcp.manage",
			"system.integrations.manage",
			"system.settings.manage",
			"data.tables.manage",
			"data.records.create",
			"data.records.view_own",
			"data.records.view_all",
			"data.records.edit_own",
			"data.records.edit_all",
			"users.invite",
			"users.manage",
			"roles.manage",
		]
		label: DF.Data | None
		parent: DF.Data
		parentfield: DF.Data
		parenttype: DF.Data
	# end: auto-generated types

	pass
