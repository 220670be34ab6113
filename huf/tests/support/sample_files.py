"""Small real documents built in memory, for the media and knowledge tests (no binary fixtures)."""

from __future__ import annotations

import base64
import io


def make_pdf(pages: list[str]) -> bytes:
	"""A valid PDF with one line of Helvetica text per page (an empty string gives a blank page)."""
	objects: dict[int, bytes] = {
		1: b"<< /Type /Catalog /Pages 2 0 R >>",
		3: b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
	}
	kids = []
	for index, text in enumerate(pages):
		page, contents = 4 + 2 * index, 5 + 2 * index
		kids.append(f"{page} 0 R")
		escaped = text.replace("\\", "\\\\").replace("(", "\\(").replace(")", "\\)")
		stream = f"BT /F1 12 Tf 72 720 Td ({escaped}) Tj ET".encode() if text else b""
		objects[page] = (
			f"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] "
			f"/Resources << /Font << /F1 3 0 R >> >> /Contents {contents} 0 R >>"
		).encode()
		objects[contents] = f"<< /Length {len(stream)} >>\nstream\n".encode() + stream + b"\nendstream"
	objects[2] = f"<< /Type /Pages /Kids [{' '.join(kids)}] /Count {len(pages)} >>".encode()

	out = b"%PDF-1.4\n"
	offsets = {}
	for number in sorted(objects):
		offsets[number] = len(out)
		out += f"{number} 0 obj\n".encode() + objects[number] + b"\nendobj\n"
	xref, size = len(out), max(objects) + 1
	out += f"xref\n0 {size}\n0000000000 65535 f \n".encode()
	out += b"".join(f"{offsets[n]:010d} 00000 n \n".encode() for n in range(1, size))
	out += f"trailer\n<< /Size {size} /Root 1 0 R >>\nstartxref\n{xref}\n%%EOF\n".encode()
	return out


def make_docx(heading: str, paragraphs: list[str], table: list[list[str]] | None = None) -> bytes:
	import docx

	document = docx.Document()
	document.add_heading(heading, level=1)
	for text in paragraphs:
		document.add_paragraph(text)
	if table:
		grid = document.add_table(rows=len(table), cols=len(table[0]))
		for r, row in enumerate(table):
			for c, value in enumerate(row):
				grid.cell(r, c).text = value
	buffer = io.BytesIO()
	document.save(buffer)
	return buffer.getvalue()


def make_xlsx(sheets: dict[str, list[list]]) -> bytes:
	import openpyxl

	workbook = openpyxl.Workbook()
	workbook.remove(workbook.active)
	for title, rows in sheets.items():
		sheet = workbook.create_sheet(title)
		for row in rows:
			sheet.append(row)
	buffer = io.BytesIO()
	workbook.save(buffer)
	return buffer.getvalue()


def make_pptx(slides: list[tuple[str, str]]) -> bytes:
	from pptx import Presentation

	presentation = Presentation()
	for title, body in slides:
		slide = presentation.slides.add_slide(presentation.slide_layouts[1])
		slide.shapes.title.text = title
		slide.placeholders[1].text = body
	buffer = io.BytesIO()
	presentation.save(buffer)
	return buffer.getvalue()


# A 1x1 PNG.
PNG = base64.b64decode(
	"iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg=="
)
