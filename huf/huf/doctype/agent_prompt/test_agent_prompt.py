import frappe

from huf.tests.support.case import HufTestCase


def lineage_rows(doctype: str, lineage: str) -> list[tuple]:
	return [
		(row.version, row.is_latest)
		for row in frappe.get_all(
			doctype, filters={"lineage": lineage}, fields=["version", "is_latest"], order_by="version asc"
		)
	]


class PromptVersioningTests:
	doctype = ""

	def new_prompt(self, **values):
		return frappe.get_doc(
			{"doctype": self.doctype, "title": "Sales Assistant", "prompt_body": "You sell.", **values}
		)

	def test_versions_increment_with_one_latest(self):
		first = self.new_prompt().insert()
		self.assertEqual((first.version, first.is_latest, first.slug), (1, 1, "sales-assistant"))
		second_name = first.create_new_version(prompt_body="You sell politely.")
		third = frappe.get_doc(self.doctype, second_name)
		third_name = third.create_new_version()
		self.assertEqual(lineage_rows(self.doctype, first.lineage), [(1, 0), (2, 0), (3, 1)])
		self.assertEqual(frappe.db.get_value(self.doctype, third_name, "slug"), "sales-assistant")

	def test_deleting_the_latest_promotes_the_previous(self):
		first = self.new_prompt().insert()
		second = frappe.get_doc(self.doctype, first.create_new_version())
		second.delete()
		self.assertEqual(lineage_rows(self.doctype, first.lineage), [(1, 1)])

	def test_slug_unique_across_prompts(self):
		self.new_prompt().insert()
		with self.assertRaisesRegex(frappe.DuplicateEntryError, "already used"):
			self.new_prompt(title="Sales  Assistant!").insert()
		with self.assertRaisesRegex(frappe.ValidationError, "Slug may contain"):
			self.new_prompt(title="Other", slug="Has Spaces").insert()

	def test_body_required(self):
		with self.assertRaises(frappe.ValidationError):
			self.new_prompt(prompt_body="  ").insert()


class TestAgentPrompt(PromptVersioningTests, HufTestCase):
	doctype = "Agent Prompt"
