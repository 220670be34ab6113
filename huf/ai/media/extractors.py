"""Local text extraction from documents: PDF, DOCX, XLSX, PPTX, HTML and plain-text formats.

Used by `ocr_document` and by knowledge inputs. No network and no API cost; the heavy parsers
(pypdf, python-docx, openpyxl, python-pptx) are imported only for the file types that need them.
"""

from __future__ import annotations

import io
import os
import re
from collections.abc import Iterable
from dataclasses import dataclass
from html.parser import HTMLParser

import frappe
from frappe import _

TEXT_EXTENSIONS = frozenset({"txt", "md", "markdown", "csv", "json", "xml", "log", "tsv", "yaml", "yml"})
HTML_EXTENSIONS = frozenset({"html", "htm", "xhtml"})
OFFICE_EXTENSIONS = frozenset({"docx", "xlsx", "pptx"})
SUPPORTED_EXTENSIONS = TEXT_EXTENSIONS | HTML_EXTENSIONS | OFFICE_EXTENSIONS | {"pdf"}
MAX_PAGE = 100_000  # page numbers above this select nothing a document has; refused, not expanded


class UnsupportedFileType(frappe.ValidationError):
	"""The file type has no local text extractor."""


@dataclass
class Page:
	"""One page (PDF page, sheet, slide) of extracted text; `index` is 0-based."""

	index: int
	text: str
	label: str = ""

	def as_dict(self) -> dict:
		return {"index": self.index, "label": self.label, "text": self.text}


def extension_of(filename: str | None) -> str:
	"""The lower-case extension of a file name, without the dot ('' when there is none)."""
	name = (filename or "").rsplit("/", 1)[-1].split("?", 1)[0]
	return name.rsplit(".", 1)[-1].lower() if "." in name else ""


# what people call a file of each extension (the chat labels attachments the same way, lib/fileKinds.ts)
_KINDS = {
	"Image": ("png", "jpg", "jpeg", "gif", "webp", "bmp", "tif", "tiff", "svg", "heic"),
	"PDF": ("pdf",),
	"Text/Markdown": ("md", "markdown", "txt", "log", "rst"),
	"Spreadsheet": ("xlsx", "xls", "ods", "csv", "tsv"),
	"Document": ("docx", "doc", "odt", "rtf"),
	"Presentation": ("pptx", "ppt", "odp"),
	"Web page": ("html", "htm", "xhtml"),
	"Data": ("json", "xml", "yaml", "yml"),
	"Audio": ("mp3", "wav", "m4a", "ogg", "oga", "opus", "flac", "webm", "aac"),
	"Video": ("mp4", "mov", "mkv", "avi"),
}
KIND_OF_EXTENSION = {ext: kind for kind, extensions in _KINDS.items() for ext in extensions}


def kind_of(filename: str | None) -> str:
	"""What kind of file this is, in words, from its extension: "notes.md" -> "Text/Markdown" ("File": unknown)."""
	return KIND_OF_EXTENSION.get(extension_of(filename), "File")


def is_supported(filename: str | None) -> bool:
	"""True when `extract_text` can read a file of this name."""
	return extension_of(filename) in SUPPORTED_EXTENSIONS


def parse_pages(pages: Iterable[int] | str | int | None) -> list[int] | None:
	"""0-based page numbers from "0,2,5", "1-3", an int or a list; None (or empty) means all pages."""
	if pages is None or pages == "" or pages == []:
		return None
	numbers: list[int] = []
	try:
		if isinstance(pages, str):
			for part in re.split(r"[,\s]+", pages.strip()):
				match = re.fullmatch(r"(\d+)\s*-\s*(\d+)", part)
				if match:
					start, end = _page(match.group(1), pages), _page(match.group(2), pages)
					numbers.extend(range(start, end + 1))
				elif part:
					numbers.append(_page(part, pages))
		else:
			numbers = [_page(p, pages) for p in ([pages] if isinstance(pages, int) else pages)]
	except TypeError:
		_invalid_pages(pages)
	return sorted(set(numbers)) or None


def _page(value: object, pages: object) -> int:
	"""One 0-based page number of the selection `pages`, from 0 to MAX_PAGE."""
	try:
		number = int(value)
	except (TypeError, ValueError):
		_invalid_pages(pages)
	if not 0 <= number <= MAX_PAGE:
		_invalid_pages(pages)
	return number


def _invalid_pages(pages: object) -> None:
	frappe.throw(
		_("Invalid page selection {0}: use page numbers from 0 to {1}, like 0,1,2 or 0-3.").format(
			str(pages)[:100], MAX_PAGE
		)
	)


def extract_text(
	source: bytes | str | os.PathLike,
	filename: str | None = None,
	*,
	pages: Iterable[int] | str | None = None,
) -> list[Page]:
	"""Extract the text of a document (bytes or a local path) as a list of pages."""
	if isinstance(source, (bytes, bytearray)):
		content = bytes(source)
	else:
		path = os.fspath(source)
		filename = filename or os.path.basename(path)
		with open(path, "rb") as f:
			content = f.read()
	ext = extension_of(filename)
	if ext not in SUPPORTED_EXTENSIONS:
		frappe.throw(
			_("Cannot extract text from {0} files ({1}). Supported: {2}.").format(
				ext.upper() or _("extension-less"), filename or "?", ", ".join(sorted(SUPPORTED_EXTENSIONS))
			),
			UnsupportedFileType,
		)
	selected = parse_pages(pages)
	try:
		if ext == "pdf":
			return _pdf(content, selected)
		if ext == "docx":
			return [Page(0, _docx(content))]
		if ext == "xlsx":
			return _xlsx(content)
		if ext == "pptx":
			return _select(_pptx(content), selected)
		if ext in HTML_EXTENSIONS:
			return [Page(0, html_to_text(decode_text(content)))]
		return [Page(0, decode_text(content))]
	except frappe.ValidationError:
		raise
	except Exception as exc:
		frappe.throw(
			_("Could not read {0} as a {1} file: {2}").format(filename or _("the file"), ext.upper(), exc),
			frappe.ValidationError,
		)


def join_pages(pages: list[Page]) -> str:
	"""All pages as one text; labelled pages get a markdown heading."""
	parts = []
	for page in pages:
		body = page.text.strip()
		parts.append(f"## {page.label}\n\n{body}" if page.label and len(pages) > 1 else body)
	return "\n\n".join(p for p in parts if p.strip())


def decode_text(content: bytes) -> str:
	"""Bytes as text: UTF-8 (with or without BOM), else Latin-1 (which never fails)."""
	try:
		return content.decode("utf-8-sig")
	except UnicodeDecodeError:
		return content.decode("latin-1")


# --- formats ---------------------------------------------------------------------------------


def _select(pages: list[Page], selected: list[int] | None) -> list[Page]:
	if selected is None:
		return pages
	return [p for p in pages if p.index in selected]


def _pdf(content: bytes, selected: list[int] | None) -> list[Page]:
	from pypdf import PdfReader

	reader = PdfReader(io.BytesIO(content))
	if reader.is_encrypted:
		try:
			reader.decrypt("")
		except Exception:
			frappe.throw(_("The PDF is password protected."))
	count = len(reader.pages)
	indexes = range(count) if selected is None else [i for i in selected if 0 <= i < count]
	if selected is not None and not indexes:
		frappe.throw(
			_("The PDF has {0} pages (numbered 0 to {1}); none of the requested pages exist.").format(
				count, count - 1
			)
		)
	return [Page(i, (reader.pages[i].extract_text() or "").strip(), f"Page {i + 1}") for i in indexes]


def _docx(content: bytes) -> str:
	import docx
	from docx.table import Table
	from docx.text.paragraph import Paragraph

	document = docx.Document(io.BytesIO(content))
	lines: list[str] = []
	for block in document.element.body.iterchildren():
		tag = block.tag.rsplit("}", 1)[-1]
		if tag == "p":
			paragraph = Paragraph(block, document)
			text = paragraph.text.strip()
			style = (paragraph.style.name or "") if paragraph.style is not None else ""
			if text and style.startswith("Heading"):
				level = style.rsplit(" ", 1)[-1]
				text = "#" * (int(level) if level.isdigit() else 1) + " " + text
			lines.append(text)
		elif tag == "tbl":
			for row in Table(block, document).rows:
				lines.append(" | ".join(cell.text.strip() for cell in row.cells))
	return re.sub(r"\n{3,}", "\n\n", "\n".join(lines)).strip()


def _xlsx(content: bytes) -> list[Page]:
	import openpyxl

	workbook = openpyxl.load_workbook(io.BytesIO(content), read_only=True, data_only=True)
	pages = []
	try:
		for index, sheet in enumerate(workbook.worksheets):
			rows = []
			for row in sheet.iter_rows(values_only=True):
				cells = ["" if v is None else str(v) for v in row]
				while cells and not cells[-1]:
					cells.pop()
				if cells:
					rows.append("\t".join(cells))
			pages.append(Page(index, "\n".join(rows), f"Sheet: {sheet.title}"))
	finally:
		workbook.close()
	return pages


def _pptx(content: bytes) -> list[Page]:
	from pptx import Presentation

	presentation = Presentation(io.BytesIO(content))
	pages = []
	for index, slide in enumerate(presentation.slides):
		lines = []
		for shape in slide.shapes:
			if getattr(shape, "has_text_frame", False) and shape.text_frame.text.strip():
				lines.append(shape.text_frame.text.strip())
			elif getattr(shape, "has_table", False):
				for row in shape.table.rows:
					lines.append(" | ".join(cell.text.strip() for cell in row.cells))
		if slide.has_notes_slide and slide.notes_slide.notes_text_frame is not None:
			notes = slide.notes_slide.notes_text_frame.text.strip()
			if notes:
				lines.append(_("Notes: {0}").format(notes))
		pages.append(Page(index, "\n".join(lines), f"Slide {index + 1}"))
	return pages


# --- HTML ------------------------------------------------------------------------------------

_BLOCK_TAGS = frozenset(
	{
		"p", "div", "br", "li", "tr", "table", "section", "article", "header", "footer", "h1", "h2", "h3",
		"h4", "h5", "h6", "pre", "blockquote", "ul", "ol", "hr", "main", "nav", "aside", "form", "dd", "dt",
	}
)  # fmt: skip
_SKIP_TAGS = frozenset({"script", "style", "noscript", "template", "svg", "head"})


class _TextParser(HTMLParser):
	def __init__(self):
		super().__init__(convert_charrefs=True)
		self.parts: list[str] = []
		self.skip = 0

	def handle_starttag(self, tag, attrs):
		if tag in _SKIP_TAGS:
			self.skip += 1
		elif tag in _BLOCK_TAGS:
			self.parts.append("\n")
			if tag in ("h1", "h2", "h3", "h4", "h5", "h6"):
				self.parts.append("#" * int(tag[1]) + " ")
			elif tag == "li":
				self.parts.append("- ")
		elif tag in ("td", "th"):
			self.parts.append(" | ")

	def handle_startendtag(self, tag, attrs):
		if tag in ("br", "hr"):
			self.parts.append("\n")

	def handle_endtag(self, tag):
		if tag in _SKIP_TAGS:
			self.skip = max(0, self.skip - 1)
		elif tag in _BLOCK_TAGS:
			self.parts.append("\n")

	def handle_data(self, data):
		if not self.skip:
			self.parts.append(data)


def html_to_text(html: str) -> str:
	"""Readable text of an HTML document: scripts and styles dropped, blocks on their own lines."""
	parser = _TextParser()
	parser.feed(html)
	parser.close()
	lines = []
	for line in "".join(parser.parts).replace("\xa0", " ").splitlines():
		line = re.sub(r"^\|\s*", "", re.sub(r"[ \t\r\f\v]+", " ", line).strip())
		if line:
			lines.append(line)
	return "\n".join(lines)
