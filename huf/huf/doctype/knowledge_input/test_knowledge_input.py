import frappe

from huf.tests.support.case import HufTestCase


class TestKnowledgeInput(HufTestCase):
	def setUp(self):
		if not frappe.db.exists("Knowledge Source", "Inputs Source"):
			frappe.get_doc({"doctype": "Knowledge Source", "source_name": "Inputs Source"}).insert()

	def new_input(self, **values):
		return frappe.get_doc({"doctype": "Knowledge Input", "knowledge_source": "Inputs Source", **values})

	def test_text_input_gets_hash_and_title(self):
		doc = self.new_input(input_type="Text", text="Refunds take 5 days.\nMore text.").insert()
		self.assertEqual(len(doc.source_hash), 64)
		self.assertEqual(doc.title, "Refunds take 5 days.")
		self.assertEqual(doc.status, "Pending")

	def test_each_type_needs_its_content(self):
		cases = {"Text": "Text is required", "File": "Attach a file", "URL": "http"}
		for input_type, message in cases.items():
			with self.subTest(input_type), self.assertRaisesRegex(frappe.ValidationError, message):
				self.new_input(input_type=input_type).insert()
		with self.assertRaisesRegex(frappe.ValidationError, "http"):
			self.new_input(input_type="URL", url="file:///etc/passwd").insert()

	def test_same_content_twice_is_refused(self):
		self.new_input(input_type="URL", url="https://example.com/faq").insert()
		with self.assertRaisesRegex(frappe.DuplicateEntryError, "already in"):
			self.new_input(input_type="URL", url="https://example.com/faq").insert()
