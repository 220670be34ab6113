from frappe.model.document import Document

from huf.huf.validators import validate_endpoint_settings


class GroqSettings(Document):
	# begin: auto-generated types
	# This code is auto-generated. Do not modify anything in this block.

	from typing import TYPE_CHECKING

	if TYPE_CHECKING:
		from frappe.types import DF

		api_key: DF.Password | None
		api_url: DF.Data | None
		auth_type: DF.Literal["Bearer", "API Key Header", "None"]
		enabled: DF.Check
		file_param: DF.Data | None
		method: DF.Literal["POST", "GET"]
		model: DF.Data | None
		provider: DF.Link | None
		response_path: DF.Data | None
	# end: auto-generated types

	def validate(self) -> None:
		validate_endpoint_settings(self)
