from huf.huf.prompt_versions import VersionedPrompt


class AgentSummaryPrompt(VersionedPrompt):
	# begin: auto-generated types
	# This code is auto-generated. Do not modify anything in this block.

	from typing import TYPE_CHECKING

	if TYPE_CHECKING:
		from frappe.types import DF

		category: DF.Link | None
		description: DF.SmallText | None
		is_active: DF.Check
		is_latest: DF.Check
		is_system: DF.Check
		lineage: DF.Data | None
		previous_version: DF.Link | None
		prompt_body: DF.Code
		slug: DF.Data | None
		source_app: DF.Data | None
		title: DF.Data
		version: DF.Int
		visibility: DF.Literal["Public", "App", "Private"]
	# end: auto-generated types

	pass
