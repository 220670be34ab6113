"""`frappe.client`: the whitelisted document calls, with the caller's permissions."""

from __future__ import annotations

import json

import frappe
import frappe.client
from frappe.tests import IntegrationTestCase

WRITER = "client_writer@example.com"
READER = "client_reader@example.com"
NOBODY = "client_nobody@example.com"


class TestClient(IntegrationTestCase):
	@classmethod
	def setUpClass(cls):
		super().setUpClass()
		roles = {WRITER: ["Lite Test Role"], READER: ["Lite Test Reader"], NOBODY: []}
		for user, user_roles in roles.items():
			frappe.get_doc(
				{
					"doctype": "User",
					"email": user,
					"first_name": user.split("@")[0],
					"roles": [{"role": role} for role in user_roles],
				}
			).insert(ignore_permissions=True)
		frappe.get_doc({"doctype": "Lite Test Category", "category_name": "Client Cat"}).insert()

	def new_record(self, title: str, **values):
		return frappe.get_doc({"doctype": "Lite Test Record", "title": title, **values}).insert()

	def test_get_returns_the_document_when_readable(self):
		record = self.new_record("client get", qty=3, items=[{"item_name": "pen", "qty": 2}])
		with self.set_user(READER):
			doc = frappe.client.get("Lite Test Record", record.name)
			self.assertEqual(doc["title"], "client get")
			self.assertEqual(doc["items"][0]["item_name"], "pen")
			by_filters = frappe.client.get("Lite Test Record", filters=json.dumps({"title": "client get"}))
			self.assertEqual(by_filters["name"], record.name)
		with self.set_user(NOBODY), self.assertRaises(frappe.PermissionError):
			frappe.client.get("Lite Test Record", record.name)
		with self.assertRaises(frappe.DoesNotExistError):
			frappe.client.get("Lite Test Record", "missing-record")

	def test_get_list_and_count_follow_permissions(self):
		self.new_record("listed one", qty=1)
		self.new_record("listed two", qty=2)
		with self.set_user(READER):
			rows = frappe.client.get_list(
				"Lite Test Record",
				fields=["title", "qty"],
				filters={"title": ["like", "listed %"]},
				order_by="qty desc",
			)
			self.assertEqual([r["title"] for r in rows], ["listed two", "listed one"])
			as_lists = frappe.client.get_list(
				"Lite Test Record",
				fields=json.dumps(["title"]),
				filters=json.dumps([["qty", "=", 1], ["title", "like", "listed %"]]),
				as_dict=False,
			)
			self.assertEqual([list(r) for r in as_lists], [["listed one"]])
			paged = frappe.client.get_list(
				"Lite Test Record",
				filters={"title": ["like", "listed %"]},
				order_by="qty asc",
				limit_start=1,
				limit_page_length=1,
			)
			self.assertEqual(len(paged), 1)
			self.assertEqual(
				frappe.client.get_count("Lite Test Record", filters={"title": ["like", "listed %"]}), 2
			)
		with self.set_user(NOBODY):
			with self.assertRaises(frappe.PermissionError):
				frappe.client.get_list("Lite Test Record")
			# as Frappe's: a plain count without permission checks (Huf overrides it over HTTP)
			self.assertEqual(
				frappe.client.get_count("Lite Test Record", filters={"title": ["like", "listed %"]}), 2
			)

	def test_get_value_and_single_value(self):
		record = self.new_record("valued", qty=7, rate=1.5)
		with self.set_user(READER):
			self.assertEqual(
				frappe.client.get_value("Lite Test Record", "qty", {"name": record.name}), {"qty": 7}
			)
			self.assertEqual(
				frappe.client.get_value("Lite Test Record", json.dumps(["qty", "rate"]), record.name),
				{"qty": 7, "rate": 1.5},
			)
			self.assertEqual(
				frappe.client.get_value("Lite Test Record", "qty", record.name, as_dict=False), 7
			)
			self.assertEqual(
				frappe.client.get_value("Lite Test Record", "qty", {"title": "nothing like it"}), {}
			)
		with self.set_user(NOBODY), self.assertRaises(frappe.PermissionError):
			frappe.client.get_value("Lite Test Record", "qty", record.name)
		settings = frappe.get_doc("Lite Test Settings")
		settings.site_title = "Client Site"
		settings.save()
		self.assertEqual(frappe.client.get_single_value("Lite Test Settings", "site_title"), "Client Site")
		with self.set_user(READER), self.assertRaises(frappe.PermissionError):
			frappe.client.get_single_value("Lite Test Settings", "site_title")

	def test_set_value_saves_with_validation_and_permission(self):
		with self.set_user(WRITER):
			record = self.new_record("to change")
			out = frappe.client.set_value("Lite Test Record", record.name, "qty", 5)
			self.assertEqual(out["qty"], 5)
			frappe.client.set_value("Lite Test Record", record.name, {"status": "Closed", "rate": 2.5})
			self.assertEqual(
				frappe.db.get_value("Lite Test Record", record.name, ["status", "rate"]), ("Closed", 2.5)
			)
			with self.assertRaises(frappe.ValidationError):
				frappe.client.set_value("Lite Test Record", record.name, "status", "Bogus")
			with self.assertRaises(frappe.ValidationError):
				frappe.client.set_value("Lite Test Record", record.name, "owner", NOBODY)
		with self.set_user(READER), self.assertRaises(frappe.PermissionError):
			frappe.client.set_value("Lite Test Record", record.name, "qty", 6)
		self.assertEqual(frappe.db.get_value("Lite Test Record", record.name, "qty"), 5)

	def test_set_value_on_a_child_row_saves_the_parent(self):
		record = self.new_record("with rows", items=[{"item_name": "ink", "qty": 1}])
		row = record.items[0].name
		frappe.client.set_value("Lite Test Record Item", row, "qty", 9)
		self.assertEqual(frappe.db.get_value("Lite Test Record Item", row, "qty"), 9)

	def test_insert_insert_many_and_save(self):
		with self.set_user(WRITER):
			doc = frappe.client.insert(
				json.dumps({"doctype": "Lite Test Record", "title": "inserted", "category": "Client Cat"})
			)
			self.assertEqual(doc["owner"], WRITER)
			names = frappe.client.insert_many(
				[{"doctype": "Lite Test Record", "title": f"many {i}"} for i in range(3)]
			)
			self.assertEqual(len(names), 3)
			self.assertEqual(frappe.db.count("Lite Test Record", {"title": ["like", "many %"]}), 3)
			doc["qty"] = 11
			saved = frappe.client.save(doc)
			self.assertEqual(saved["qty"], 11)
			stale = dict(doc, qty=12)
			with self.assertRaises(frappe.TimestampMismatchError):
				frappe.client.save(stale)
			with self.assertRaises(frappe.LinkValidationError):
				frappe.client.insert(
					{"doctype": "Lite Test Record", "title": "bad link", "category": "No Such Cat"}
				)
		with self.set_user(READER), self.assertRaises(frappe.PermissionError):
			frappe.client.insert({"doctype": "Lite Test Record", "title": "reader insert"})

	def test_insert_child_row_through_its_parent(self):
		record = self.new_record("parent of row")
		frappe.client.insert(
			{
				"doctype": "Lite Test Record Item",
				"parenttype": "Lite Test Record",
				"parent": record.name,
				"parentfield": "items",
				"item_name": "added",
			}
		)
		self.assertEqual(
			[row.item_name for row in frappe.get_doc("Lite Test Record", record.name).items], ["added"]
		)

	def test_delete(self):
		with self.set_user(WRITER):
			mine = self.new_record("mine to delete")
		theirs = self.new_record("admin's")
		with self.set_user(WRITER):
			frappe.client.delete("Lite Test Record", mine.name)
			self.assertFalse(frappe.db.exists("Lite Test Record", mine.name))
			with self.assertRaises(frappe.PermissionError):
				frappe.client.delete("Lite Test Record", theirs.name)
		self.assertTrue(frappe.db.exists("Lite Test Record", theirs.name))

	def test_submit_and_cancel_need_those_rights(self):
		with self.set_user(WRITER):
			order = frappe.get_doc({"doctype": "Lite Test Order", "customer": "Client Co"}).insert()
			with self.assertRaises(frappe.PermissionError):
				frappe.client.submit(order.as_dict())
		self.assertEqual(frappe.db.get_value("Lite Test Order", order.name, "docstatus"), 0)
		submitted = frappe.client.submit(frappe.get_doc("Lite Test Order", order.name).as_dict())
		self.assertEqual(submitted["docstatus"], 1)
		with self.set_user(WRITER), self.assertRaises(frappe.PermissionError):
			frappe.client.cancel("Lite Test Order", order.name)
		cancelled = frappe.client.cancel("Lite Test Order", order.name)
		self.assertEqual(cancelled["docstatus"], 2)

	def test_client_functions_are_whitelisted_for_the_right_methods(self):
		for name in ("get", "get_list", "get_count", "get_value", "get_single_value"):
			self.assertIn(getattr(frappe.client, name), frappe.whitelisted, name)
		for name in ("set_value", "insert", "insert_many", "save", "submit", "cancel"):
			self.assertNotIn(
				"GET", frappe.allowed_http_methods_for_whitelisted_func[getattr(frappe.client, name)], name
			)
		self.assertIn("DELETE", frappe.allowed_http_methods_for_whitelisted_func[frappe.client.delete])
