"""The records grid's API: pages, filters, sorting, search, saving and deleting, per capability."""

import frappe

from huf.api.data_tables import delete_records, get_records, save_record
from huf.tests.support.data_tables import DataTableTestCase
from huf.tests.support.web import api_clients

METHOD = "huf.api.data_tables."


class TestRecords(DataTableTestCase):
	def add(self, user: str, **values) -> dict:
		with self.as_user(user):
			return save_record(self.table, frappe.as_json(values))

	def test_users_see_and_edit_their_own_records_managers_all(self):
		mine = self.add(self.USER, title="Mine")
		theirs = self.add(self.MANAGER, title="Theirs")
		self.assertEqual(mine["owner"], self.USER)

		with self.as_user(self.USER):
			page = get_records(self.table)
		self.assertEqual([r["title"] for r in page["rows"]], ["Mine"])
		self.assertEqual(page["total"], 1)
		self.assertTrue(page["rows"][0]["_can_edit"])
		self.assertTrue(page["can_create"])

		with self.as_user(self.MANAGER):
			page = get_records(self.table)
		self.assertEqual({r["title"] for r in page["rows"]}, {"Mine", "Theirs"})
		self.assertEqual(page["total"], 2)
		self.assertTrue(all(r["_can_edit"] for r in page["rows"]))

		with self.as_user(self.USER), self.assertRaises(frappe.PermissionError):
			save_record(self.table, frappe.as_json({"title": "Taken over"}), str(theirs["name"]))
		with self.as_user(self.USER), self.assertRaises(frappe.PermissionError):
			delete_records(self.table, frappe.as_json([theirs["name"]]))
		self.assertEqual(frappe.db.get_value(self.doctype, theirs["name"], "title"), "Theirs")

		with self.as_user(self.MANAGER):
			changed = save_record(self.table, frappe.as_json({"qty": "4"}), str(mine["name"]))
		self.assertEqual(changed["qty"], 4)
		self.assertEqual(frappe.db.get_value(self.doctype, mine["name"], "owner"), self.USER)

	def test_a_user_without_data_capabilities_is_refused(self):
		self.add(self.MANAGER, title="Hidden")
		with self.as_user(self.VIEWER):
			with self.assertRaises(frappe.PermissionError):
				get_records(self.table)
			with self.assertRaises(frappe.PermissionError):
				save_record(self.table, frappe.as_json({"title": "Sneaky"}))
		self.assertFalse(frappe.db.exists(self.doctype, {"title": "Sneaky"}))

	def test_a_missing_table_is_not_found(self):
		with self.assertRaises(frappe.DoesNotExistError):
			get_records("no-such-table-" + frappe.generate_hash(length=6))

	def test_filters_sort_search_and_pages(self):
		for title, qty, status in (
			("Apple pie", 1, "Open"),
			("Banana bread", 5, "Done"),
			("Apple crumble", 3, "Open"),
			("Cherry tart", 8, "Open"),
			("Date cake", 2, "Done"),
		):
			self.add(self.MANAGER, title=title, qty=qty, status=status)
		with self.as_user(self.MANAGER):
			page = get_records(self.table, frappe.as_json([["qty", ">", 1]]), "qty asc", 1, 2)
			self.assertEqual([r["title"] for r in page["rows"]], ["Apple crumble", "Banana bread"])
			self.assertEqual((page["total"], page["start"], page["page_length"]), (4, 1, 2))

			page = get_records(self.table, frappe.as_json([["status", "in", ["Done"]]]), "qty desc")
			self.assertEqual([r["title"] for r in page["rows"]], ["Banana bread", "Date cake"])

			page = get_records(self.table, search="apple", order_by="title asc")
			self.assertEqual([r["title"] for r in page["rows"]], ["Apple crumble", "Apple pie"])
			self.assertEqual(page["total"], 2)

			page = get_records(self.table, frappe.as_json([["due", "is", "not set"]]), page_length=10_000)
			self.assertEqual((page["total"], page["page_length"]), (5, 500))

	def test_bad_filters_and_sort_orders_are_refused_with_a_message(self):
		with self.as_user(self.MANAGER):
			for filters, order_by, message in (
				([["secret", "=", 1]], None, "no such field"),
				([["qty", "regexp", "1"]], None, "Unknown filter operator"),
				([["qty", "is", "maybe"]], None, '"set" or "not set"'),
				("oops", None, "filters must be"),
				(None, "qty; drop table x", "Cannot sort by"),
				(None, "nothing desc", "Cannot sort by"),
			):
				with self.subTest(filters=filters, order_by=order_by):
					with self.assertRaises(frappe.ValidationError) as caught:
						get_records(self.table, frappe.as_json(filters) if filters else None, order_by)
					self.assertIn(message, str(caught.exception))

	def test_values_are_converted_and_bad_ones_named(self):
		row = self.add(
			self.USER,
			title="Typed",
			qty="7",
			amount="12.50",
			urgent="yes",
			due="2025-03-01",
			notes="multi\nline",
		)
		stored = frappe.db.get_value(
			self.doctype, row["name"], ["qty", "amount", "urgent", "due", "status"], as_dict=True
		)
		self.assertEqual(stored.qty, 7)
		self.assertEqual(float(stored.amount), 12.5)
		self.assertEqual(stored.urgent, 1)
		self.assertEqual(str(stored.due), "2025-03-01")
		self.assertEqual(stored.status, "Open")  # the field's default

		for values, message in (
			({"title": "x", "qty": "seven"}, "Qty: seven is not a number"),
			({"title": "x", "status": "Maybe"}, "Status: Maybe is not one of the options"),
			({"title": "x", "due": "tomorrow"}, "Due: tomorrow"),
			({"title": "x", "colour": "red"}, "has no field colour"),
			({"qty": 1}, "Title"),
		):
			with self.subTest(values=values):
				with self.as_user(self.USER), self.assertRaises(frappe.ValidationError) as caught:
					save_record(self.table, frappe.as_json(values))
				self.assertIn(message, str(caught.exception))

	def test_deleting_records(self):
		first = self.add(self.USER, title="One")
		second = self.add(self.USER, title="Two")
		with self.as_user(self.USER):
			result = delete_records(self.table, frappe.as_json([first["name"], second["name"]]))
		self.assertEqual(result, {"deleted": 2})
		self.assertFalse(frappe.db.exists(self.doctype, first["name"]))
		self.assertFalse(frappe.db.exists(self.doctype, second["name"]))


class TestRecordsOverHttp(DataTableTestCase):
	"""The grid's calls as the dashboard makes them: GET with query parameters, POST with a form."""

	@classmethod
	def setUpClass(cls):
		super().setUpClass()
		(cls.client,) = api_clients(cls, cls.USER, path="/api/method/")

	def tearDown(self):
		frappe.db.rollback()
		frappe.db.delete(self.doctype)
		frappe.db.commit()

	def test_save_then_page_then_delete(self):
		for title, qty in (("Alpha", "1"), ("Beta", "2"), ("Gamma", "3")):
			response = self.client.post(
				METHOD + "save_record",
				data={"name": self.table, "values": frappe.as_json({"title": title, "qty": qty})},
			)
			self.assertEqual(response.status_code, 200, response.text)
		response = self.client.get(
			METHOD + "get_records",
			params={
				"name": self.table,
				"filters": frappe.as_json([["qty", ">=", 2]]),
				"order_by": "qty desc",
				"start": "0",
				"page_length": "1",
			},
		)
		self.assertEqual(response.status_code, 200, response.text)
		page = response.json()["message"]
		self.assertEqual([r["title"] for r in page["rows"]], ["Gamma"])
		self.assertEqual((page["total"], page["can_create"]), (2, True))
		self.assertEqual([c["fieldname"] for c in page["columns"]][:3], ["title", "code", "status"])

		response = self.client.post(
			METHOD + "delete_records",
			data={"name": self.table, "records": frappe.as_json([page["rows"][0]["name"]])},
		)
		self.assertEqual((response.status_code, response.json()["message"]), (200, {"deleted": 1}))
		response = self.client.post(
			METHOD + "save_record", data={"name": self.table, "values": '{"qty": "x"}'}
		)
		self.assertEqual(response.status_code, 417, response.text)
		self.assertIn("Qty: x is not a number", response.text)
		response = self.client.get(METHOD + "delete_records", params={"name": self.table, "records": "[1]"})
		self.assertIn(response.status_code, (403, 405), response.text)
		self.assertEqual(frappe.db.count(self.doctype), 2)
