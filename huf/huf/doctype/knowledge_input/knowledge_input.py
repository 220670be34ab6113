import hashlib

import frappe
from frappe import _
from frappe.model.document import Document

from huf.huf.validators import validate_http_url


class KnowledgeInput(Document):
	# begin: auto-generated types
	# This code is auto-generated. Do not modify anything in this block.

	from typing import TYPE_CHECKING

	if TYPE_CHECKING:
		from frappe.types import DF

		chunk_count: DF.Int
		error_message: DF.SmallText | None
		file: DF.Attach | None
		indexed_at: DF.Datetime | None
		input_type: DF.Literal["Text", "File", "URL"]
		knowledge_source: DF.Link
		source_hash: DF.Data | None
		status: DF.Literal["Pending", "Processing", "Indexed", "Error"]
		text: DF.LongText | None
		title: DF.Data | None
		url: DF.Data | None
	# end: auto-generated types

	def validate(self) -> None:
		content = self.validate_content()
		self.source_hash = hashlib.sha256(f"{self.input_type}:{content}".encode()).hexdigest()
		clash = frappe.db.get_value(
			"Knowledge Input",
			{
				"knowledge_source": self.knowledge_source,
				"source_hash": self.source_hash,
				"name": ("!=", self.name or ""),
			},
		)
		if clash:
			frappe.throw(
				_("This content is already in {0} as {1}.").format(frappe.bold(self.knowledge_source), clash),
				frappe.DuplicateEntryError,
			)
		if not self.title:
			self.title = (content.splitlines() or [""])[0][:140]

	def validate_content(self) -> str:
		"""The content that identifies this input, after checking the field its type needs."""
		if self.input_type == "File":
			if not self.file:
				frappe.throw(_("Attach a file for a File input."))
			# identical bytes under another name are the same content
			content_hash = frappe.db.get_value("File", {"file_url": self.file}, "content_hash")
			return f"sha:{content_hash}" if content_hash else self.file
		if self.input_type == "URL":
			self.url = validate_http_url(self.url, _("URL"))
			return self.url
		if not (self.text or "").strip():
			frappe.throw(_("Text is required for a Text input."))
		return self.text.strip()


@frappe.whitelist(methods=["POST"])
def reprocess_input(knowledge_input: str) -> dict:
	"""Index one input again (Desk button Reprocess): its chunks are replaced, the others stay."""
	from huf.ai.knowledge.indexer import enqueue_input

	doc = frappe.get_doc("Knowledge Input", knowledge_input)
	doc.check_permission("write")
	frappe.get_doc("Knowledge Source", doc.knowledge_source).check_permission("write")
	doc.db_set({"status": "Pending", "error_message": ""}, update_modified=False)
	enqueue_input(doc.name, doc.knowledge_source)
	return {"queued": True, "status": "Pending"}
