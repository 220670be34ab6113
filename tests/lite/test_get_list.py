"""frappe.get_all / get_list: filters (dict and list, every operator), fields, order, limits, pluck."""

import frappe
from frappe.tests import IntegrationTestCase
from frappe.utils import add_days, nowdate
from lite_test_app.testing import make_category

ROWS = [
	# title, qty, rate, status, category
	("Alpha", 1, 1.0, "Open", "GL Cat"),
	("Bravo", 2, 2.5, "Open", None),
	("Charlie", 3, 3.0, "Closed", "GL Cat"),
	("Delta", 4, 4.5, "Replied", None),
	("Echo", 5, 5.0, "Closed", "GL Cat"),
]


class TestGetList(IntegrationTestCase):
	def setUp(self):
		make_category("GL Cat")
		self.marker = "gl-" + frappe.generate_hash(length=8)
		self.names = {}
		for title, qty, rate, status, category in ROWS:
			doc = frappe.get_doc(
				{
					"doctype": "Lite Test Record",
					"title": title,
					"qty": qty,
					"rate": rate,
					"status": status,
					"category": category,
					"notes": self.marker,
					"items": [{"item_name": f"{title} item", "qty": qty}],
				}
			).insert()
			self.names[title] = doc.name

	def titles(self, filters=None, **kwargs) -> list[str]:
		base = [["notes", "=", self.marker]]
		if isinstance(filters, dict):
			base += [[k, *v] if isinstance(v, list | tuple) else [k, "=", v] for k, v in filters.items()]
		elif filters:
			base += filters
		return frappe.get_all("Lite Test Record", filters=base, pluck="title", order_by="title asc", **kwargs)

	def test_dict_filters(self):
		rows = frappe.get_all(
			"Lite Test Record",
			filters={"notes": self.marker, "status": "Closed"},
			pluck="title",
			order_by="title asc",
		)
		self.assertEqual(rows, ["Charlie", "Echo"])
		rows = frappe.get_all(
			"Lite Test Record",
			filters={"notes": self.marker, "qty": (">", 3)},
			pluck="title",
			order_by="title asc",
		)
		self.assertEqual(rows, ["Delta", "Echo"])
		rows = frappe.get_all(
			"Lite Test Record",
			filters={"notes": self.marker, "qty": ["in", [1, 5]]},
			pluck="title",
			order_by="title asc",
		)
		self.assertEqual(rows, ["Alpha", "Echo"])

	def test_list_filters_with_and_without_doctype(self):
		rows = frappe.get_all(
			"Lite Test Record",
			filters=[["Lite Test Record", "notes", "=", self.marker], ["qty", "<=", 2]],
			pluck="title",
			order_by="title asc",
		)
		self.assertEqual(rows, ["Alpha", "Bravo"])

	def test_every_operator(self):
		cases = [
			(["qty", "=", 3], ["Charlie"]),
			(["qty", "!=", 3], ["Alpha", "Bravo", "Delta", "Echo"]),
			(["qty", ">", 3], ["Delta", "Echo"]),
			(["qty", "<", 3], ["Alpha", "Bravo"]),
			(["qty", ">=", 4], ["Delta", "Echo"]),
			(["qty", "<=", 1], ["Alpha"]),
			(["title", "like", "%ha%"], ["Alpha", "Charlie"]),
			(["title", "not like", "%a%"], ["Echo"]),
			(["status", "in", ["Open", "Replied"]], ["Alpha", "Bravo", "Delta"]),
			(["status", "in", "Open, Replied"], ["Alpha", "Bravo", "Delta"]),
			(["status", "not in", ["Open", "Replied"]], ["Charlie", "Echo"]),
			(["category", "is", "set"], ["Alpha", "Charlie", "Echo"]),
			(["category", "is", "not set"], ["Bravo", "Delta"]),
			(["qty", "between", [2, 4]], ["Bravo", "Charlie", "Delta"]),
			(["rate", ">", 2.5], ["Charlie", "Delta", "Echo"]),
		]
		for condition, expected in cases:
			with self.subTest(condition=condition):
				self.assertEqual(self.titles([condition]), expected)

	def test_empty_in_list(self):
		self.assertEqual(self.titles([["status", "in", []]]), [])
		self.assertEqual(len(self.titles([["status", "not in", []]])), 5)

	def test_datetime_filter(self):
		yesterday = frappe.utils.add_days(frappe.utils.now_datetime(), -1)
		self.assertEqual(len(self.titles([["creation", ">", yesterday]])), 5)
		self.assertEqual(self.titles([["creation", "<", yesterday]]), [])

	def test_all_fields(self):
		rows = frappe.get_all(
			"Lite Test Record", filters={"notes": self.marker, "title": "Bravo"}, fields=["*"]
		)
		self.assertEqual(len(rows), 1)
		self.assertEqual(rows[0].title, "Bravo")
		self.assertEqual(rows[0].qty, 2)
		self.assertEqual(rows[0].name, self.names["Bravo"])

	def test_not_equal_includes_empty_values(self):
		self.assertEqual(self.titles([["category", "!=", "GL Cat"]]), ["Bravo", "Delta"])

	def test_between_dates_includes_the_whole_last_day(self):
		self.assertEqual(len(self.titles([["creation", "between", [add_days(nowdate(), -1), nowdate()]]])), 5)
		self.assertEqual(
			self.titles([["creation", "between", [add_days(nowdate(), 1), add_days(nowdate(), 2)]]]), []
		)

	def test_or_filters(self):
		rows = frappe.get_all(
			"Lite Test Record",
			filters={"notes": self.marker},
			or_filters=[["qty", "=", 1], ["status", "=", "Replied"]],
			pluck="title",
			order_by="title asc",
		)
		self.assertEqual(rows, ["Alpha", "Delta"])

	def test_child_table_filter(self):
		rows = frappe.get_all(
			"Lite Test Record",
			filters=[["notes", "=", self.marker], ["Lite Test Record Item", "item_name", "=", "Bravo item"]],
			pluck="title",
		)
		self.assertEqual(rows, ["Bravo"])

	def test_fields_and_aliases(self):
		rows = frappe.get_all(
			"Lite Test Record",
			filters={"notes": self.marker, "title": "Alpha"},
			fields=["name", "title as label", "qty", "rate"],
		)
		self.assertEqual(len(rows), 1)
		self.assertEqual(rows[0].label, "Alpha")
		self.assertEqual(rows[0]["qty"], 1)
		self.assertEqual(rows[0].rate, 1.0)
		self.assertEqual(rows[0].name, self.names["Alpha"])
		self.assertNotIn("title", rows[0])

	def test_child_fields(self):
		rows = frappe.get_all(
			"Lite Test Record",
			filters={"notes": self.marker, "title": "Charlie"},
			fields=["title", "`tabLite Test Record Item`.item_name as item_name"],
		)
		self.assertEqual([(r.title, r.item_name) for r in rows], [("Charlie", "Charlie item")])

	def test_aggregate(self):
		rows = frappe.get_all(
			"Lite Test Record",
			filters={"notes": self.marker},
			fields=["count(name) as total", "sum(qty) as qty_sum"],
		)
		self.assertEqual(rows[0].total, 5)
		self.assertEqual(rows[0].qty_sum, 15)
		grouped = frappe.get_all(
			"Lite Test Record",
			filters={"notes": self.marker},
			fields=["status", "count(name) as n"],
			group_by="status",
			order_by="status asc",
		)
		self.assertEqual([(r.status, r.n) for r in grouped], [("Closed", 2), ("Open", 2), ("Replied", 1)])

	def test_order_by(self):
		desc = frappe.get_all(
			"Lite Test Record", filters={"notes": self.marker}, pluck="title", order_by="qty desc"
		)
		self.assertEqual(desc, ["Echo", "Delta", "Charlie", "Bravo", "Alpha"])
		multi = frappe.get_all(
			"Lite Test Record", filters={"notes": self.marker}, pluck="title", order_by="status asc, qty desc"
		)
		self.assertEqual(multi, ["Echo", "Charlie", "Bravo", "Alpha", "Delta"])

	def test_limits(self):
		base = {"filters": {"notes": self.marker}, "pluck": "title", "order_by": "qty asc"}
		self.assertEqual(frappe.get_all("Lite Test Record", limit=2, **base), ["Alpha", "Bravo"])
		self.assertEqual(
			frappe.get_all("Lite Test Record", limit_start=1, limit_page_length=2, **base),
			["Bravo", "Charlie"],
		)
		self.assertEqual(
			frappe.get_all("Lite Test Record", start=3, page_length=5, **base), ["Delta", "Echo"]
		)
		self.assertEqual(len(frappe.get_all("Lite Test Record", **base)), 5)
		self.assertEqual(frappe.get_list("Lite Test Record", limit_page_length=1, **base), ["Alpha"])

	def test_filters_given_as_second_argument(self):
		rows = frappe.get_all(
			"Lite Test Record", {"notes": self.marker, "status": "Open"}, pluck="title", order_by="title asc"
		)
		self.assertEqual(rows, ["Alpha", "Bravo"])
		rows = frappe.get_all(
			"Lite Test Record", [["notes", "=", self.marker], ["qty", ">", 4]], ["title", "qty"]
		)
		self.assertEqual([(r.title, r.qty) for r in rows], [("Echo", 5)])
		rows = frappe.get_all("Lite Test Record", {"notes": self.marker, "qty": 1}, ["title", "qty"])
		self.assertEqual([(r.title, r.qty) for r in rows], [("Alpha", 1)])

	def test_limit_wins_over_page_length(self):
		rows = frappe.get_all(
			"Lite Test Record", filters={"notes": self.marker}, limit_page_length=4, limit=2, pluck="name"
		)
		self.assertEqual(len(rows), 2)

	def test_pluck_and_as_list(self):
		names = frappe.get_all("Lite Test Record", filters={"notes": self.marker}, pluck="name")
		self.assertEqual(sorted(names), sorted(self.names.values()))
		rows = frappe.get_all(
			"Lite Test Record",
			filters={"notes": self.marker},
			fields=["title", "qty"],
			order_by="qty asc",
			as_list=True,
		)
		self.assertEqual([tuple(r) for r in rows][:2], [("Alpha", 1), ("Bravo", 2)])

	def test_default_fields_and_order(self):
		rows = frappe.get_all("Lite Test Record", filters={"notes": self.marker})
		self.assertEqual(set(rows[0].keys()), {"name"})
		self.assertEqual(len(rows), 5)

	def test_get_list_same_result_for_administrator(self):
		listed = frappe.get_list(
			"Lite Test Record", filters={"notes": self.marker}, pluck="title", order_by="title asc"
		)
		self.assertEqual(listed, ["Alpha", "Bravo", "Charlie", "Delta", "Echo"])

	def test_unknown_field_is_rejected(self):
		with self.assertRaises(Exception):
			frappe.get_all("Lite Test Record", fields=["no_such_field"])

	def test_injection_in_fields_is_rejected(self):
		with self.assertRaises(Exception):
			frappe.get_all("Lite Test Record", fields=["name; drop table `tabLite Test Record`"])
		self.assertEqual(len(self.titles()), 5)
