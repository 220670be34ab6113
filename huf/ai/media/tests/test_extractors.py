"""Local text extraction from real PDF, DOCX, XLSX, PPTX, HTML and text files built in memory."""

import json
import os
import tempfile

import frappe

from huf.ai.media.extractors import (
	UnsupportedFileType,
	extract_text,
	html_to_text,
	is_supported,
	join_pages,
	parse_pages,
)
from huf.tests.support.case import HufUnitTestCase
from huf.tests.support.sample_files import make_docx, make_pdf, make_pptx, make_xlsx


class TestExtractors(HufUnitTestCase):
	def test_pdf_pages_and_selection(self):
		pdf = make_pdf(["Invoice 42 (draft)", "Total: 99 EUR", "Thanks"])
		pages = extract_text(pdf, "invoice.pdf")
		self.assertEqual([p.index for p in pages], [0, 1, 2])
		self.assertEqual(pages[0].text, "Invoice 42 (draft)")
		self.assertEqual(pages[1].label, "Page 2")
		selected = extract_text(pdf, "invoice.pdf", pages="0,2")
		self.assertEqual([p.text for p in selected], ["Invoice 42 (draft)", "Thanks"])
		self.assertEqual([p.index for p in extract_text(pdf, "x.pdf", pages="1-2")], [1, 2])
		with self.assertRaises(frappe.ValidationError) as caught:
			extract_text(pdf, "x.pdf", pages="7")
		self.assertIn("3 pages", str(caught.exception))

	def test_docx_headings_paragraphs_and_tables(self):
		data = make_docx(
			"Quarterly report", ["Revenue grew.", "Costs fell."], [["Item", "Qty"], ["Pens", "3"]]
		)
		text = join_pages(extract_text(data, "report.docx"))
		self.assertEqual(
			text.splitlines(),
			["# Quarterly report", "Revenue grew.", "Costs fell.", "Item | Qty", "Pens | 3"],
		)

	def test_xlsx_one_page_per_sheet(self):
		data = make_xlsx({"Q1": [["name", "amount"], ["alice", 10]], "Q2": [["bob", 2.5, None]]})
		pages = extract_text(data, "sales.xlsx")
		self.assertEqual([p.label for p in pages], ["Sheet: Q1", "Sheet: Q2"])
		self.assertEqual(pages[0].text, "name\tamount\nalice\t10")
		self.assertEqual(pages[1].text, "bob\t2.5")
		self.assertIn("## Sheet: Q2", join_pages(pages))

	def test_pptx_slides(self):
		data = make_pptx([("Welcome", "First point"), ("Plan", "Ship it")])
		pages = extract_text(data, "deck.pptx")
		self.assertEqual([p.label for p in pages], ["Slide 1", "Slide 2"])
		self.assertEqual(pages[1].text, "Plan\nShip it")
		self.assertEqual(
			[p.text for p in extract_text(data, "deck.pptx", pages=[0])], ["Welcome\nFirst point"]
		)

	def test_html(self):
		html = (
			"<html><head><title>T</title><style>p{color:red}</style></head><body>"
			"<script>alert('x')</script><h1>Title</h1><p>Hello&nbsp;<b>world</b> &amp; more</p>"
			"<ul><li>one</li><li>two</li></ul><table><tr><td>a</td><td>b</td></tr></table></body></html>"
		)
		self.assertEqual(
			html_to_text(html).splitlines(),
			["# Title", "Hello world & more", "- one", "- two", "a | b"],
		)
		self.assertNotIn("alert", join_pages(extract_text(html.encode(), "page.html")))

	def test_text_formats_and_paths(self):
		payload = json.dumps({"k": "välue"}).encode()
		self.assertEqual(extract_text(payload, "data.json")[0].text, '{"k": "v\\u00e4lue"}')
		self.assertEqual(extract_text("é".encode("latin-1"), "old.txt")[0].text, "é")
		self.assertEqual(extract_text(b"\xef\xbb\xbfa,b\n1,2", "t.csv")[0].text, "a,b\n1,2")
		with tempfile.TemporaryDirectory() as folder:
			path = os.path.join(folder, "notes.md")
			with open(path, "w") as f:
				f.write("# Notes\nline")
			self.assertEqual(extract_text(path)[0].text, "# Notes\nline")
		for name in ("a.txt", "b.MD", "c.log", "d.xml", "e.htm", "f.PDF"):
			self.assertTrue(is_supported(name), name)

	def test_unsupported_and_corrupt(self):
		with self.assertRaises(UnsupportedFileType):
			extract_text(b"MZ", "tool.exe")
		self.assertFalse(is_supported("photo.png"))
		with self.assertRaises(frappe.ValidationError) as caught:
			extract_text(b"not a zip", "broken.docx")
		self.assertIn("broken.docx", str(caught.exception))

	def test_parse_pages(self):
		self.assertEqual(parse_pages("2, 0,1"), [0, 1, 2])
		self.assertEqual(parse_pages(" "), None)
		self.assertEqual(parse_pages(None), None)
		self.assertEqual(parse_pages(3), [3])
		with self.assertRaises(frappe.ValidationError):
			parse_pages("first")
