"""Every DocType tool type through the agent loop: documents really change, denials change nothing."""

import frappe

from huf.tests.support.tools import ToolTestCase

CLERK = "tool-docs-clerk@example.com"  # may create, read and write orders; no submit, cancel or delete
ORDER = "Lite Test Order"
ORDER_FIELDS = [
	{"fieldname": "customer", "required": 1},
	{"fieldname": "amount", "type": "number"},
	{"fieldname": "remarks"},
	{"fieldname": "item_name", "child_table_name": "items"},
	{"fieldname": "qty", "type": "integer", "child_table_name": "items"},
]


def order_count(**filters) -> int:
	return frappe.db.count(ORDER, {"customer": ("like", "tooldocs-%"), **filters})


def make_order(customer: str, submit: bool = False, **values) -> str:
	doc = frappe.get_doc({"doctype": ORDER, "customer": customer, **values}).insert(ignore_permissions=True)
	if submit:
		doc.submit()
	frappe.db.commit()
	return doc.name


class TestDocumentTools(ToolTestCase):
	users = ((CLERK, ("Huf User", "Lite Test Role")),)

	@classmethod
	def setUpClass(cls):
		super().setUpClass()
		frappe.set_user("Administrator")
		tools = {
			"orders_get": ("Get Document", {}),
			"orders_get_many": ("Get Multiple Documents", {}),
			"orders_list": ("Get List", {"parameters": ORDER_FIELDS[:3]}),
			"orders_create": ("Create Document", {"parameters": ORDER_FIELDS}),
			"orders_create_many": ("Create Multiple Documents", {"parameters": ORDER_FIELDS[:3]}),
			"orders_update": ("Update Document", {"parameters": ORDER_FIELDS[:3]}),
			"orders_update_many": ("Update Multiple Documents", {"parameters": ORDER_FIELDS[:3]}),
			"orders_delete": ("Delete Document", {}),
			"orders_delete_many": ("Delete Multiple Documents", {}),
			"orders_submit": ("Submit Document", {}),
			"orders_cancel": ("Cancel Document", {}),
			"orders_amended": ("Get Amended Document", {}),
			"orders_value": ("Get Value", {}),
			"orders_set": ("Set Value", {}),
			"orders_attach": ("Attach File to Document", {}),
		}
		for name, (types, values) in tools.items():
			ToolTestCase.make_tool(cls, name, types, reference_doctype=ORDER, **values)
		cls.agent = ToolTestCase.make_agent(cls, "Tool Docs Agent", agent_tool=[{"tool": t} for t in tools])

	def tearDown(self):
		super().tearDown()
		for name in frappe.get_all(ORDER, filters={"customer": ("like", "tooldocs-%")}, pluck="name"):
			frappe.db.set_value(ORDER, name, "docstatus", 0, update_modified=False)
			frappe.delete_doc(ORDER, name, force=True, ignore_permissions=True)
		frappe.db.delete("File", {"attached_to_doctype": ORDER})
		frappe.db.commit()

	def test_create_with_child_rows_and_coerced_values(self):
		out = self.call_tool(
			self.agent,
			"orders_create",
			{
				"customer": "tooldocs-acme",
				"amount": "12.5",
				"items": '[{"item_name": "bolt", "qty": "3"}]',
				"remarks": None,
			},
			CLERK,
		)
		self.assertEqual(out["record"].status, "Completed", out["content"])
		doc = frappe.get_doc(ORDER, out["data"]["name"])
		self.assertEqual((doc.customer, doc.amount, doc.owner), ("tooldocs-acme", 12.5, CLERK))
		self.assertEqual([(r.item_name, r.qty) for r in doc.items], [("bolt", 3)])

	def test_get_document_and_get_multiple(self):
		first, second = make_order("tooldocs-one", amount=5), make_order("tooldocs-two")
		got = self.call_tool(self.agent, "orders_get", {"name": first}, CLERK)  # `name` for document_id
		self.assertEqual(got["data"]["customer"], "tooldocs-one")
		self.assertEqual(got["data"]["document_status"], "Draft")
		many = self.call_tool(self.agent, "orders_get_many", {"document_ids": [first, second, "nope"]}, CLERK)
		self.assertEqual([d["name"] for d in many["data"]["documents"]], [first, second])
		self.assertEqual(many["data"]["errors"][0]["document_id"], "nope")

	def test_get_list_with_filters_fields_order_and_limit(self):
		for customer, amount in (("tooldocs-a", 1), ("tooldocs-b", 2), ("tooldocs-c", 3)):
			make_order(customer, amount=amount)
		out = self.call_tool(
			self.agent,
			"orders_list",
			{
				"filters": [["amount", ">", 1]],
				"fields": "customer, amount",
				"order_by": "amount desc",
				"limit": "1",
			},
			CLERK,
		)
		self.assertEqual(out["record"].status, "Completed", out["content"])
		self.assertEqual(
			out["data"]["records"],
			[{"name": out["data"]["records"][0]["name"], "customer": "tooldocs-c", "amount": 3.0}],
		)
		self.assertIn("more_records", out["data"])
		bad = self.call_tool(self.agent, "orders_list", {"fields": ["customer", "secret) --"]}, CLERK)
		self.assertEqual(bad["record"].status, "Failed")
		self.assertIn("Valid fields", bad["content"])

	def test_update_and_update_multiple(self):
		first, second = make_order("tooldocs-u1"), make_order("tooldocs-u2")
		out = self.call_tool(
			self.agent, "orders_update", {"document_id": first, "values": {"amount": "7"}}, CLERK
		)
		self.assertEqual(out["record"].status, "Completed", out["content"])
		self.assertEqual(frappe.db.get_value(ORDER, first, "amount"), 7)
		many = self.call_tool(
			self.agent,
			"orders_update_many",
			{
				"documents": [
					{"document_id": first, "remarks": "checked"},
					{"document_id": second, "remarks": "checked"},
				]
			},
			CLERK,
		)
		self.assertEqual(many["record"].status, "Completed", many["content"])
		self.assertEqual(order_count(remarks="checked"), 2)

	def test_a_failing_item_undoes_the_whole_batch(self):
		out = self.call_tool(
			self.agent,
			"orders_create_many",
			{
				"documents": [
					{"customer": "tooldocs-ok"},
					{"amount": 3},
				]
			},
			CLERK,
		)
		self.assertEqual(out["record"].status, "Failed")
		self.assertIn("customer is required", out["content"])
		self.assertEqual(order_count(), 0)
		ok = self.call_tool(
			self.agent,
			"orders_create_many",
			{"documents": [{"customer": "tooldocs-x"}, {"customer": "tooldocs-y"}]},
			CLERK,
		)
		self.assertEqual(len(ok["data"]["names"]), 2)
		self.assertEqual(order_count(), 2)

	def test_delete_needs_the_delete_permission(self):
		first, second = make_order("tooldocs-d1"), make_order("tooldocs-d2")
		denied = self.call_tool(self.agent, "orders_delete", {"document_id": first}, CLERK)
		self.assertEqual(denied["record"].status, "Failed")
		self.assertIn("Permission denied in orders_delete", denied["content"])
		self.assertTrue(frappe.db.exists(ORDER, first))
		denied_many = self.call_tool(
			self.agent, "orders_delete_many", {"document_ids": [first, second]}, CLERK
		)
		self.assertIn("Permission denied", denied_many["content"])
		self.assertEqual(order_count(), 2)
		self.call_tool(self.agent, "orders_delete", {"document_id": first})
		self.call_tool(self.agent, "orders_delete_many", {"document_ids": second})  # one id for a list
		self.assertEqual(order_count(), 0)

	def test_submit_and_cancel(self):
		name = make_order("tooldocs-s")
		denied = self.call_tool(self.agent, "orders_submit", {"document_id": name}, CLERK)
		self.assertIn("Permission denied in orders_submit", denied["content"])
		self.assertEqual(frappe.db.get_value(ORDER, name, "docstatus"), 0)
		self.call_tool(self.agent, "orders_submit", {"document_id": name})
		self.assertEqual(frappe.db.get_value(ORDER, name, "docstatus"), 1)
		again = self.call_tool(self.agent, "orders_submit", {"document_id": name})
		self.assertIn("already submitted", again["content"])
		denied = self.call_tool(self.agent, "orders_cancel", {"document_id": name}, CLERK)
		self.assertIn("Permission denied in orders_cancel", denied["content"])
		self.assertEqual(frappe.db.get_value(ORDER, name, "docstatus"), 1)
		out = self.call_tool(self.agent, "orders_cancel", {"document_id": name})
		self.assertEqual(out["data"]["document"]["document_status"], "Cancelled")
		self.assertEqual(frappe.db.get_value(ORDER, name, "docstatus"), 2)

	def test_get_amended_document_refuses_doctypes_without_amendments(self):
		name = make_order("tooldocs-am")
		out = self.call_tool(self.agent, "orders_amended", {"document_id": name})
		self.assertEqual(out["record"].status, "Failed")
		self.assertIn("cannot be amended", out["content"])

	def test_get_value_and_set_value(self):
		name = make_order("tooldocs-v", amount=4)
		got = self.call_tool(
			self.agent, "orders_value", {"document_id": name, "fieldname": '["customer", "amount"]'}, CLERK
		)
		self.assertEqual((got["data"]["customer"], got["data"]["amount"]), ("tooldocs-v", 4))
		by_filter = self.call_tool(
			self.agent, "orders_value", {"filters": {"customer": "tooldocs-v"}, "fieldname": "amount"}, CLERK
		)
		self.assertEqual(by_filter["data"]["name"], name)
		out = self.call_tool(
			self.agent, "orders_set", {"document_id": name, "remarks": "set by agent"}, CLERK
		)
		self.assertEqual(out["record"].status, "Completed", out["content"])
		self.assertEqual(frappe.db.get_value(ORDER, name, "remarks"), "set by agent")
		bad = self.call_tool(
			self.agent, "orders_set", {"document_id": name, "fieldname": "owner", "value": "x"}, CLERK
		)
		self.assertEqual(bad["record"].status, "Failed")
		self.assertEqual(frappe.db.get_value(ORDER, name, "owner"), "Administrator")

	def test_attach_file_to_document(self):
		name = make_order("tooldocs-f")
		source = frappe.get_doc(
			{"doctype": "File", "file_name": "tooldocs.txt", "content": "hello", "is_private": 1}
		).insert(ignore_permissions=True)
		frappe.db.commit()
		try:
			denied = self.call_tool(
				self.agent, "orders_attach", {"document_id": name, "file_url": source.file_url}, CLERK
			)
			self.assertIn("No file you can read", denied["content"])  # a private file of another user
			out = self.call_tool(
				self.agent, "orders_attach", {"document_id": name, "file_url": source.file_url}
			)
			self.assertEqual(out["record"].status, "Completed", out["content"])
			attached = frappe.get_all(
				"File",
				filters={"attached_to_doctype": ORDER, "attached_to_name": name},
				fields=["file_url", "is_private"],
			)
			self.assertEqual([(f.file_url, f.is_private) for f in attached], [(source.file_url, 1)])
		finally:
			frappe.db.delete("File", {"file_url": source.file_url, "attached_to_name": ("is", "not set")})
			frappe.db.commit()
