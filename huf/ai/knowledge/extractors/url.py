"""URL inputs: fetched through the SSRF-safe client (private addresses refused), then turned into text."""

from __future__ import annotations

import frappe
from frappe import _

from huf.ai.media.extractors import Page, decode_text, extension_of, extract_text, html_to_text, is_supported

MAX_URL_BYTES = 20 * 1024 * 1024
TIMEOUT = 30
FILE_TYPES = {
	"application/pdf": "pdf",
	"application/vnd.openxmlformats-officedocument.wordprocessingml.document": "docx",
	"application/vnd.openxmlformats-officedocument.spreadsheetml.sheet": "xlsx",
	"application/vnd.openxmlformats-officedocument.presentationml.presentation": "pptx",
}


def extract_url(url: str) -> list[Page]:
	from huf.ai.http.safe_client import safe_request

	response = safe_request("GET", url, timeout=TIMEOUT, max_bytes=MAX_URL_BYTES)
	if response.status_code >= 400:
		frappe.throw(_("Fetching {0} failed with HTTP {1}.").format(url, response.status_code))
	if response.truncated:
		frappe.throw(_("{0} is larger than {1} MB.").format(url, MAX_URL_BYTES // (1024 * 1024)))
	content_type = (response.headers.get("content-type") or "").split(";", 1)[0].strip().lower()
	if content_type in FILE_TYPES:
		return extract_text(response.content, filename=f"download.{FILE_TYPES[content_type]}")
	if "html" in content_type or (not content_type and response.content.lstrip()[:1] == b"<"):
		return [Page(0, html_to_text(response.text))]
	if content_type.startswith("text/") or content_type in ("application/json", "application/xml"):
		return [Page(0, decode_text(response.content))]
	if is_supported(response.url):
		return extract_text(response.content, filename=f"download.{extension_of(response.url)}")
	frappe.throw(_("Cannot extract text from {0} (content type {1}).").format(url, content_type or "?"))
