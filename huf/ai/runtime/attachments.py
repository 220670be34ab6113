"""A run's attached files as model content: images as image parts, documents as extracted text.

`user_content(prompt, attachments, agent)` takes the run's attachments (file URLs, File names or
`{"file_url"|"file_id"|"name": ...}`), resolved to their File records now, as the run's user:
- images (PNG, JPEG, GIF, WEBP...) become `image_url` parts with a data URL, for vision models;
- every other format goes through the OCR/extraction path (`huf.ai.media.ocr.ocr_document`: PDF,
  DOCX, XLSX, PPTX, TXT, MD, HTML, CSV, JSON, XML, LOG) and its text is appended under the heading
  "Attached File Content", each file with its name, its kind (PDF, Text/Markdown, Spreadsheet...; "read by
  OCR" when the provider's OCR endpoint read it) and the sha256 of its content;
- a file the user may not read, a missing or unreadable file, or a cut text gets a readable note.
The conversation stores only the prompt and the file names (`UserContent.stored`), never the text.
"""

from __future__ import annotations

import base64
from dataclasses import dataclass, field
from typing import Any

import frappe
from frappe import _

from huf.ai.media import common
from huf.ai.media.extractors import extension_of, kind_of

HEADING = "Attached File Content"
MAX_FILE_CHARS = 30_000  # extracted text of one file sent to the model
MAX_TOTAL_CHARS = 90_000  # extracted text of all files of one message
MAX_IMAGE_BYTES = 5 * 1024 * 1024  # larger images are not sent (a note says so)
MAX_FILES = 20


@dataclass
class UserContent:
	"""`model`: the user message's content for the model (text, or parts when images are attached);
	`stored`: what the conversation keeps (the prompt and the file names)."""

	model: str | list[dict]
	stored: str
	notes: list[str] = field(default_factory=list)


def user_content(prompt: str, attachments: list | None = None, agent: str | None = None) -> UserContent:
	"""The user's message with its attachments, as the model sees it and as the conversation stores it."""
	prompt = prompt or ""
	items = [item for item in (attachments or []) if item][:MAX_FILES]
	if not items:
		return UserContent(prompt, prompt)
	names, sections, images, notes = [], [], [], []
	budget = MAX_TOTAL_CHARS
	for item in items:
		file_doc, note = _resolve(item)
		if file_doc is None:
			names.append(_label(item))
			notes.append(note)
			continue
		names.append(file_doc.file_name or _label(item))
		if extension_of(file_doc.file_name or file_doc.file_url) in common.IMAGE_EXTENSIONS:
			part, note = _image_part(file_doc)
			if part:
				images.append(part)
			if note:
				notes.append(note)
			continue
		section, used = _text_section(file_doc, agent, budget)
		budget -= used
		sections.append(section)
	text = prompt
	if sections or notes:
		body = "\n\n".join(sections + [f"[{note}]" for note in notes])
		text = f"{prompt}\n\n## {_(HEADING)}\n\n{body}"
	stored = f"{prompt}\n\n{_('Attached files:')} {', '.join(names)}"
	model: str | list[dict] = text
	if images:
		model = [{"type": "text", "text": text}, *images]
	return UserContent(model, stored, notes)


def _resolve(item: Any) -> tuple[Any, str | None]:
	"""(File, None), or (None, a note) when it does not exist or the run's user may not read it."""
	if isinstance(item, dict):
		file_id, file_url = item.get("file_id") or item.get("name"), item.get("file_url")
	else:
		value = str(item).strip()
		is_url = "/" in value or not frappe.db.exists("File", value)
		file_id, file_url = (None, value) if is_url else (value, None)
	label = _label(item)
	try:
		file_doc = common.find_file(file_id, file_url)
	except (frappe.DoesNotExistError, frappe.ValidationError):
		return None, _("File {0} could not be found; it was not read.").format(label)
	try:
		common.check_file_access(file_doc)
	except frappe.PermissionError:
		return None, _("File {0} was not read: {1} may not read it.").format(
			file_doc.file_name or label, frappe.session.user
		)
	return file_doc, None


def _image_part(file_doc: Any) -> tuple[dict | None, str | None]:
	try:
		content = common.read_file(file_doc)
	except (frappe.ValidationError, frappe.DoesNotExistError) as exc:
		return None, _("Image {0} was not sent: {1}").format(file_doc.file_name, _plain(exc))
	if len(content) > MAX_IMAGE_BYTES:
		return None, _("Image {0} was not sent: it is larger than {1} MB.").format(
			file_doc.file_name, MAX_IMAGE_BYTES // 1024 // 1024
		)
	ext = extension_of(file_doc.file_name or file_doc.file_url)
	mime = common.IMAGE_MIME.get(ext, f"image/{ext}")
	url = f"data:{mime};base64," + base64.b64encode(content).decode()
	return {"type": "image_url", "image_url": {"url": url}}, None


def _text_section(file_doc: Any, agent: str | None, budget: int) -> tuple[str, int]:
	"""The file's heading line and extracted text (cut to the caps), and the characters it used."""
	from huf.ai.media.ocr import ocr_document

	try:
		result = ocr_document(file_id=file_doc.name, agent=agent)
	except (frappe.ValidationError, frappe.PermissionError) as exc:
		result = common.failure(_plain(exc))
	about = [_(kind_of(file_doc.file_name or file_doc.file_url))]
	if result.get("success") and result.get("strategy") not in (None, "local", "local_pdf"):
		about.append(_("read by OCR"))
	if result.get("file_hash"):
		about.append(f"sha256: {result['file_hash']}")
	title = f"### {file_doc.file_name} ({', '.join(about)})"
	if not result.get("success"):
		return f"{title}\n[{_('Could not read this file: {0}').format(result.get('error'))}]", 0
	text = (result.get("text") or "").strip()
	limit = max(0, min(MAX_FILE_CHARS, budget))
	lines = [title]
	if len(text) > limit:
		lines.append(text[:limit])
		lines.append(
			"["
			+ _("Truncated: showing {0} of {1} characters of {2}.").format(
				limit, len(text), file_doc.file_name
			)
			+ "]"
		)
		text = text[:limit]
	else:
		lines.append(text or f"[{_('No text found in this file.')}]")
	if result.get("note"):
		lines.append(f"[{result['note']}]")
	return "\n".join(lines), len(text)


def _label(item: Any) -> str:
	if isinstance(item, dict):
		item = item.get("file_url") or item.get("file_id") or item.get("name") or ""
	return str(item).rsplit("/", 1)[-1] or str(item)


def _plain(exc: BaseException) -> str:
	from frappe.utils import strip_html

	return strip_html(str(exc))
