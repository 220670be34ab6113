"""The text of a Knowledge Input: Text as is, File through the shared extractors, URL through `safe_request`.

File types and their extraction are area M's `huf.ai.media.extractors` (PDF via pypdf, DOCX, XLSX,
PPTX, HTML, TXT/MD/CSV/JSON...); this module only finds the bytes and checks who may read them.
"""

from __future__ import annotations

from typing import Any

import frappe
from frappe import _

from huf.ai.media.extractors import Page, extract_text


def extract_input(doc: Any) -> list[Page]:
	"""The pages of text of one Knowledge Input (raises a ValidationError with the reason)."""
	if doc.input_type == "File":
		pages = extract_file(doc)
	elif doc.input_type == "URL":
		from huf.ai.knowledge.extractors.url import extract_url

		pages = extract_url(doc.url)
	else:
		pages = [Page(0, doc.text or "")]
	pages = [page for page in pages if (page.text or "").strip()]
	if not pages:
		frappe.throw(_("No text found in {0}.").format(frappe.bold(doc.title or doc.name)))
	return pages


def extract_file(doc: Any) -> list[Page]:
	"""Extract the attached file; a private file must be readable by the input's owner."""
	url = (doc.file or "").strip()
	names = frappe.get_all("File", filters={"file_url": url}, pluck="name", order_by="creation desc", limit=1)
	if not names:
		frappe.throw(_("The file {0} of {1} does not exist.").format(url, frappe.bold(doc.name)))
	file_doc = frappe.get_doc("File", names[0])
	if file_doc.is_private and not frappe.has_permission("File", "read", doc=file_doc, user=doc.owner):
		frappe.throw(
			_("{0} may not read the file {1}.").format(doc.owner, file_doc.file_name), frappe.PermissionError
		)
	return extract_text(file_doc.get_full_path(), filename=file_doc.file_name or url)
