"""frappe.db: get_value(s), set_value, exists, count, sql, savepoints, rollback, delete."""

import frappe
from frappe.tests import IntegrationTestCase
from lite_test_app.testing import make_category


def record(title: str, **values):
	return frappe.get_doc({"doctype": "Lite Test Record", "title": title, **values}).insert()


class TestDbApi(IntegrationTestCase):
	def setUp(self):
		self.marker = "db-" + frappe.generate_hash(length=8)
		self.a = record("DB A", qty=1, rate=1.5, notes=self.marker, status="Open")
		self.b = record("DB B", qty=2, rate=2.5, notes=self.marker, status="Closed")

	def test_get_value(self):
		self.assertEqual(frappe.db.get_value("Lite Test Record", self.a.name, "title"), "DB A")
		self.assertEqual(
			frappe.db.get_value("Lite Test Record", {"notes": self.marker, "qty": 2}, "title"), "DB B"
		)
		self.assertEqual(frappe.db.get_value("Lite Test Record", self.a.name, ["title", "qty"]), ("DB A", 1))
		row = frappe.db.get_value("Lite Test Record", self.b.name, ["title", "qty", "rate"], as_dict=True)
		self.assertEqual(row, {"title": "DB B", "qty": 2, "rate": 2.5})
		self.assertEqual(row.title, "DB B")
		self.assertIsNone(frappe.db.get_value("Lite Test Record", "does-not-exist", "title"))
		self.assertIsNone(frappe.db.get_value("Lite Test Record", {"notes": "no such marker"}, "title"))
		self.assertEqual(
			frappe.db.get_value("Lite Test Record", {"notes": self.marker}, "title", order_by="qty desc"),
			"DB B",
		)
		self.assertEqual(
			frappe.db.get_value("Lite Test Record", {"notes": self.marker, "qty": (">", 1)}, "name"),
			self.b.name,
		)
		self.assertEqual(frappe.db.get_value("Lite Test Record", self.a.name), self.a.name)

	def test_get_values(self):
		rows = frappe.db.get_values(
			"Lite Test Record", {"notes": self.marker}, ["title", "qty"], order_by="qty asc"
		)
		self.assertEqual([tuple(r) for r in rows], [("DB A", 1), ("DB B", 2)])
		dict_rows = frappe.db.get_values(
			"Lite Test Record", {"notes": self.marker}, ["title", "qty"], as_dict=True, order_by="qty asc"
		)
		self.assertEqual(dict_rows, [{"title": "DB A", "qty": 1}, {"title": "DB B", "qty": 2}])

	def test_set_value(self):
		before = frappe.db.get_value("Lite Test Record", self.a.name, "modified")
		frappe.db.set_value("Lite Test Record", self.a.name, "title", "DB A2")
		self.assertEqual(frappe.db.get_value("Lite Test Record", self.a.name, "title"), "DB A2")
		self.assertGreater(frappe.db.get_value("Lite Test Record", self.a.name, "modified"), before)
		frappe.db.set_value("Lite Test Record", self.a.name, {"qty": 10, "rate": 0.5})
		self.assertEqual(frappe.db.get_value("Lite Test Record", self.a.name, ["qty", "rate"]), (10, 0.5))
		unchanged = frappe.db.get_value("Lite Test Record", self.b.name, "modified")
		frappe.db.set_value("Lite Test Record", self.b.name, "qty", 20, update_modified=False)
		self.assertEqual(frappe.db.get_value("Lite Test Record", self.b.name, "modified"), unchanged)
		self.assertEqual(frappe.db.get_value("Lite Test Record", self.b.name, "qty"), 20)

	def test_set_value_with_filters_updates_every_match(self):
		frappe.db.set_value("Lite Test Record", {"notes": self.marker}, "status", "Replied")
		self.assertEqual(frappe.db.count("Lite Test Record", {"notes": self.marker, "status": "Replied"}), 2)

	def test_get_value_with_list_filters(self):
		self.assertEqual(
			frappe.db.get_value("Lite Test Record", [["notes", "=", self.marker], ["qty", ">=", 2]], "title"),
			"DB B",
		)

	def test_rollback_callbacks(self):
		called = []
		frappe.db.after_rollback.add(lambda: called.append("after_rollback"))
		frappe.db.after_commit.add(lambda: called.append("after_commit"))
		frappe.db.rollback()
		self.assertEqual(called, ["after_rollback"])

	def test_exists(self):
		self.assertEqual(frappe.db.exists("Lite Test Record", self.a.name), self.a.name)
		self.assertEqual(
			frappe.db.exists("Lite Test Record", {"title": "DB B", "notes": self.marker}), self.b.name
		)
		self.assertFalse(frappe.db.exists("Lite Test Record", "does-not-exist"))
		self.assertFalse(frappe.db.exists("Lite Test Record", {"notes": "no such marker"}))
		self.assertEqual(
			frappe.db.exists({"doctype": "Lite Test Record", "title": "DB A", "notes": self.marker}),
			self.a.name,
		)

	def test_get_value_with_cache_reads_once_per_context(self):
		self.assertEqual(frappe.db.get_value("Lite Test Record", self.a.name, "title", cache=True), "DB A")
		frappe.db.sql("update `tabLite Test Record` set title='DB A2' where name=%s", (self.a.name,))
		frappe.db.commit()
		self.addCleanup(frappe.db.commit)  # cleanups run last first: delete, then commit
		self.addCleanup(frappe.db.delete, "Lite Test Record", {"notes": self.marker})
		with self.assertQueryCount(0):  # as on Frappe: cached for the request or job, commits or not
			self.assertEqual(
				frappe.db.get_value("Lite Test Record", self.a.name, "title", cache=True), "DB A"
			)
		self.assertEqual(frappe.db.get_value("Lite Test Record", self.a.name, "title"), "DB A2")
		self.assertEqual(frappe.db.exists("Lite Test Record", self.b.name, cache=True), self.b.name)
		with self.assertQueryCount(0):
			self.assertEqual(frappe.db.exists("Lite Test Record", self.b.name, cache=True), self.b.name)

	def test_link_checks_are_cached_and_a_rollback_forgets_them(self):
		make_category("Cached Parent")
		child = frappe.get_doc(
			{
				"doctype": "Lite Test Category",
				"category_name": "Cached Child",
				"parent_category": "Cached Parent",
			}
		)
		child.get_invalid_links()
		with self.assertQueryCount(0):  # Frappe's link check: one query per linked record and context
			self.assertEqual(child.get_invalid_links(), ([], []))

		frappe.db.savepoint("cached_links")
		make_category("Rolled Back Parent")
		child.parent_category = "Rolled Back Parent"
		self.assertEqual(child.get_invalid_links(), ([], []))
		frappe.db.rollback(save_point="cached_links")
		with self.assertRaises(frappe.LinkValidationError):
			child.insert()

	def test_count(self):
		self.assertEqual(frappe.db.count("Lite Test Record", {"notes": self.marker}), 2)
		self.assertEqual(frappe.db.count("Lite Test Record", {"notes": self.marker, "qty": (">", 1)}), 1)
		self.assertEqual(
			frappe.db.count("Lite Test Record", [["notes", "=", self.marker], ["status", "=", "Open"]]), 1
		)
		self.assertGreaterEqual(frappe.db.count("Lite Test Record"), 2)

	def test_sql_with_params(self):
		rows = frappe.db.sql(
			"select title, qty from `tabLite Test Record` where notes=%s order by qty", (self.marker,)
		)
		self.assertEqual([tuple(r) for r in rows], [("DB A", 1), ("DB B", 2)])
		rows = frappe.db.sql(
			"select title, qty from `tabLite Test Record` where notes=%(marker)s and qty > %(min)s",
			{"marker": self.marker, "min": 1},
			as_dict=True,
		)
		self.assertEqual(rows, [{"title": "DB B", "qty": 2}])
		self.assertEqual(rows[0].title, "DB B")
		titles = frappe.db.sql(
			"select title from `tabLite Test Record` where notes=%s order by title", self.marker, pluck=True
		)
		self.assertEqual(titles, ["DB A", "DB B"])
		self.assertEqual(
			frappe.db.sql(
				"select title from `tabLite Test Record` where title like %s and notes=%s",
				("DB %", self.marker),
				as_list=True,
			)[0][0][:3],
			"DB ",
		)

	def test_mariadb_idioms(self):
		rows = frappe.db.sql(
			"select name from `tabLite Test Record` where name=%s for update", (self.a.name,)
		)
		self.assertEqual(rows[0][0], self.a.name)
		self.assertEqual(
			frappe.db.get_value("Lite Test Record", self.a.name, "title", for_update=True), "DB A"
		)
		self.assertEqual(frappe.db.sql("select concat('a', 'b', 'c')")[0][0], "abc")
		self.assertEqual(frappe.db.sql("select ifnull(null, 'x')")[0][0], "x")

	def test_sql_values_are_not_interpolated(self):
		evil = "x'; delete from `tabLite Test Record`; --"
		self.assertEqual(
			frappe.db.sql("select count(*) from `tabLite Test Record` where title=%s", (evil,))[0][0], 0
		)
		self.assertEqual(frappe.db.count("Lite Test Record", {"notes": self.marker}), 2)
		self.assertEqual(frappe.db.count("Lite Test Record", {"title": evil}), 0)

	def test_savepoint_rollback(self):
		frappe.db.savepoint("lite_sp")
		c = record("DB C", notes=self.marker)
		self.assertTrue(frappe.db.exists("Lite Test Record", c.name))
		frappe.db.rollback(save_point="lite_sp")
		self.assertFalse(frappe.db.exists("Lite Test Record", c.name))
		self.assertTrue(frappe.db.exists("Lite Test Record", self.a.name))

	def test_rollback(self):
		frappe.db.rollback()
		self.assertFalse(frappe.db.exists("Lite Test Record", self.a.name))

	def test_delete(self):
		frappe.db.delete("Lite Test Record", {"notes": self.marker, "qty": 1})
		self.assertFalse(frappe.db.exists("Lite Test Record", self.a.name))
		self.assertTrue(frappe.db.exists("Lite Test Record", self.b.name))

	def test_get_single_value(self):
		frappe.db.set_single_value("Lite Test Settings", "max_items", 42)
		self.assertEqual(frappe.db.get_single_value("Lite Test Settings", "max_items"), 42)

	def test_escape(self):
		quoted = frappe.db.escape("it's")
		self.assertEqual(frappe.db.sql(f"select {quoted}")[0][0], "it's")


class TestDocumentApi(IntegrationTestCase):
	def test_db_set_skips_the_controller(self):
		from lite_test_app.events import clear_calls, get_calls

		doc = record("db_set")
		before = doc.modified
		clear_calls()
		doc.db_set("title", "set directly")
		self.assertEqual(doc.title, "set directly")
		self.assertEqual(frappe.db.get_value("Lite Test Record", doc.name, "title"), "set directly")
		# no validation or save hooks: only on_change (controller, then both apps' hooks)
		self.assertEqual(
			get_calls("Lite Test Record"),
			[
				("controller", "on_change"),
				("app1:doctype", "on_change"),
				("app2:doctype", "on_change"),
				("app1:*", "on_change"),
				("app2:*", "on_change"),
			],
		)
		self.assertGreater(doc.modified, before)
		unchanged = frappe.db.get_value("Lite Test Record", doc.name, "modified")
		doc.db_set({"qty": 4, "rate": 1.25}, update_modified=False)
		self.assertEqual(
			frappe.db.get_value("Lite Test Record", doc.name, ["qty", "rate", "modified"]),
			(4, 1.25, unchanged),
		)
		# the in-memory copy stays current: it can still be saved
		doc.title = "saved after db_set"
		doc.save()

	def test_reload(self):
		doc = record("reload")
		frappe.db.set_value("Lite Test Record", doc.name, "title", "changed elsewhere")
		self.assertEqual(doc.title, "reload")
		doc.reload()
		self.assertEqual(doc.title, "changed elsewhere")

	def test_get_and_set(self):
		doc = frappe.get_doc({"doctype": "Lite Test Record", "title": "get set"})
		doc.set("qty", 3)
		self.assertEqual(doc.get("qty"), 3)
		self.assertEqual(doc.qty, 3)
		self.assertIsNone(doc.get("category"))
		self.assertEqual(doc.get("not_a_field", "fallback"), "fallback")
		doc.update({"rate": 1.5, "notes": "n"})
		self.assertEqual((doc.rate, doc.notes), (1.5, "n"))

	def test_as_dict(self):
		doc = record("as dict", items=[{"item_name": "row"}])
		data = doc.as_dict()
		self.assertIsInstance(data, dict)
		for key in (
			"name",
			"owner",
			"creation",
			"modified",
			"modified_by",
			"docstatus",
			"idx",
			"title",
			"items",
		):
			self.assertIn(key, data)
		self.assertEqual(data["title"], "as dict")
		self.assertEqual(data.title, "as dict")
		self.assertEqual(data["items"][0]["item_name"], "row")

	def test_copy_doc(self):
		doc = record("original", qty=3, items=[{"item_name": "r1"}, {"item_name": "r2"}])
		copy = frappe.copy_doc(doc)
		self.assertTrue(copy.is_new())
		self.assertEqual(copy.title, "original")
		self.assertEqual([r.item_name for r in copy.items], ["r1", "r2"])
		copy.title = "copy"
		copy.insert()
		self.assertNotEqual(copy.name, doc.name)
		self.assertNotEqual(copy.items[0].name, doc.items[0].name)
		self.assertEqual(frappe.get_doc("Lite Test Record", doc.name).items[0].name, doc.items[0].name)
		self.assertEqual(len(frappe.get_doc("Lite Test Record", copy.name).items), 2)

	def test_get_doc_by_filters_and_missing(self):
		doc = record("by filters", code="BY-FILTERS-1")
		self.assertEqual(frappe.get_doc("Lite Test Record", {"code": "BY-FILTERS-1"}).name, doc.name)
		with self.assertRaises(frappe.DoesNotExistError):
			frappe.get_doc("Lite Test Record", "does-not-exist")

	def test_delete_doc_checks_links(self):
		make_category("Linked Cat")
		doc = record("linker", category="Linked Cat")
		with self.assertRaises(frappe.LinkExistsError):
			frappe.delete_doc("Lite Test Category", "Linked Cat")
		self.assertTrue(frappe.db.exists("Lite Test Category", "Linked Cat"))
		doc.delete()
		frappe.delete_doc("Lite Test Category", "Linked Cat")
		self.assertFalse(frappe.db.exists("Lite Test Category", "Linked Cat"))

	def test_delete_doc_checks_links_from_child_rows(self):
		make_category("Row Linked Cat")
		record("row linker", items=[{"item_name": "r", "category": "Row Linked Cat"}])
		with self.assertRaises(frappe.LinkExistsError):
			frappe.delete_doc("Lite Test Category", "Row Linked Cat")

	def test_delete_doc_checks_links_from_cancelled_documents_too(self):
		make_category("Order Cat")
		order = frappe.get_doc(
			{"doctype": "Lite Test Order", "customer": "c", "category": "Order Cat", "docstatus": 1}
		).insert()
		order.cancel()
		with self.assertRaises(frappe.LinkExistsError):
			frappe.delete_doc("Lite Test Category", "Order Cat")
		frappe.delete_doc("Lite Test Category", "Order Cat", force=True)
		self.assertFalse(frappe.db.exists("Lite Test Category", "Order Cat"))

	def test_delete_doc_checks_links_from_singles(self):
		make_category("Single Cat")
		frappe.db.set_single_value("Lite Test Settings", "default_category", "Single Cat")
		with self.assertRaises(frappe.LinkExistsError):
			frappe.delete_doc("Lite Test Category", "Single Cat")

	def test_cancel_is_refused_while_a_submitted_document_links_here(self):
		target = frappe.get_doc({"doctype": "Lite Test Order", "customer": "target", "docstatus": 1}).insert()
		frappe.get_doc(
			{
				"doctype": "Lite Test Order",
				"customer": "blocker",
				"reference_order": target.name,
				"docstatus": 1,
			}
		).insert()
		with self.assertRaises(frappe.LinkExistsError):
			target.cancel()

	def test_cancel_ignores_draft_and_cancelled_links(self):
		target = frappe.get_doc({"doctype": "Lite Test Order", "customer": "target", "docstatus": 1}).insert()
		frappe.get_doc(
			{"doctype": "Lite Test Two Note", "title": "draft link", "order": target.name}
		).insert()
		frappe.get_doc(
			{"doctype": "Lite Test Order", "customer": "draft", "reference_order": target.name}
		).insert()
		cancelled = frappe.get_doc(
			{"doctype": "Lite Test Order", "customer": "c", "reference_order": target.name, "docstatus": 1}
		).insert()
		cancelled.cancel()
		target.cancel()
		self.assertEqual(frappe.db.get_value("Lite Test Order", target.name, "docstatus"), 2)

	def test_delete_doc_checks_dynamic_links(self):
		target = record("dynamic target")
		note = frappe.get_doc(
			{
				"doctype": "Lite Test Two Note",
				"title": "n",
				"reference_doctype": "Lite Test Record",
				"reference_name": target.name,
			}
		).insert()
		with self.assertRaises(frappe.LinkExistsError):
			frappe.delete_doc("Lite Test Record", target.name)
		note.delete()
		frappe.delete_doc("Lite Test Record", target.name)
		self.assertFalse(frappe.db.exists("Lite Test Record", target.name))

	def test_delete_doc_removes_comments_and_todos(self):
		target = record("with comments")
		target.add_comment("Comment", "a comment")
		todo = frappe.get_doc(
			{
				"doctype": "ToDo",
				"description": "follow up",
				"reference_type": "Lite Test Record",
				"reference_name": target.name,
			}
		).insert()
		self.assertTrue(
			frappe.db.exists(
				"Comment", {"reference_doctype": "Lite Test Record", "reference_name": target.name}
			)
		)
		frappe.delete_doc("Lite Test Record", target.name)
		self.assertFalse(
			frappe.db.exists(
				"Comment", {"reference_doctype": "Lite Test Record", "reference_name": target.name}
			)
		)
		self.assertFalse(frappe.db.exists("ToDo", todo.name))

	def test_delete_doc_missing(self):
		frappe.delete_doc("Lite Test Record", "does-not-exist")
		with self.assertRaises(frappe.DoesNotExistError):
			frappe.delete_doc("Lite Test Record", "does-not-exist", ignore_missing=False)

	def test_rename_doc_updates_links(self):
		make_category("Old Cat Name", description="d")
		doc = record(
			"renamed link", category="Old Cat Name", items=[{"item_name": "r", "category": "Old Cat Name"}]
		)
		new_name = frappe.rename_doc("Lite Test Category", "Old Cat Name", "New Cat Name")
		self.assertEqual(new_name, "New Cat Name")
		self.assertFalse(frappe.db.exists("Lite Test Category", "Old Cat Name"))
		renamed = frappe.get_doc("Lite Test Category", "New Cat Name")
		self.assertEqual(renamed.description, "d")
		self.assertEqual(renamed.category_name, "New Cat Name")
		loaded = frappe.get_doc("Lite Test Record", doc.name)
		self.assertEqual(loaded.category, "New Cat Name")
		self.assertEqual(loaded.items[0].category, "New Cat Name")

	def test_rename_to_existing_name_fails(self):
		make_category("Rename A")
		make_category("Rename B")
		with self.assertRaises(frappe.ValidationError):
			frappe.rename_doc("Lite Test Category", "Rename A", "Rename B")
		self.assertTrue(frappe.db.exists("Lite Test Category", "Rename A"))

	def test_rename_not_allowed_without_allow_rename(self):
		doc = record("not renamable")
		with self.assertRaises(frappe.ValidationError):
			frappe.rename_doc("Lite Test Record", doc.name, "renamed-record")
		self.assertTrue(frappe.db.exists("Lite Test Record", doc.name))
		frappe.rename_doc("Lite Test Record", doc.name, "renamed-record", force=True)
		self.assertTrue(frappe.db.exists("Lite Test Record", "renamed-record"))

	def test_rename_method(self):
		make_category("Method Old", description="m")
		doc = frappe.get_doc("Lite Test Category", "Method Old")
		doc.rename("Method New")
		self.assertEqual(doc.name, "Method New")
		self.assertEqual(frappe.db.get_value("Lite Test Category", "Method New", "description"), "m")

	def test_doc_before_save_and_has_value_changed(self):
		doc = record("before save")
		self.assertTrue(doc.flags.title_changed)
		self.assertIsNone(doc.flags.title_before)
		doc.qty = 9
		doc.save()
		self.assertFalse(doc.flags.title_changed)
		self.assertEqual(doc.flags.title_before, "before save")
		doc.title = "after save"
		doc.save()
		self.assertTrue(doc.flags.title_changed)
		self.assertEqual(doc.flags.title_before, "before save")

	def test_save_of_a_new_document_inserts_it(self):
		doc = frappe.get_doc({"doctype": "Lite Test Record", "title": "saved new"})
		doc.save()
		self.assertTrue(frappe.db.exists("Lite Test Record", doc.name))

	def test_insert_ignore_if_duplicate(self):
		make_category("Dup Ignored", description="first")
		frappe.get_doc(
			{"doctype": "Lite Test Category", "category_name": "Dup Ignored", "description": "second"}
		).insert(ignore_if_duplicate=True)
		self.assertEqual(frappe.db.get_value("Lite Test Category", "Dup Ignored", "description"), "first")

	def test_get_cached_doc_and_new_doc(self):
		doc = record("cached")
		self.assertEqual(frappe.get_cached_doc("Lite Test Record", doc.name).title, "cached")
		new = frappe.new_doc("Lite Test Record")
		self.assertTrue(new.is_new())
		self.assertEqual(new.priority, 3)
		self.assertEqual(new.doctype, "Lite Test Record")

	def test_get_meta(self):
		meta = frappe.get_meta("Lite Test Record")
		self.assertTrue(meta.has_field("title"))
		self.assertFalse(meta.has_field("no_such_field"))
		self.assertEqual(meta.get_field("category").options, "Lite Test Category")
		self.assertEqual(meta.get_field("items").fieldtype, "Table")
		self.assertEqual(meta.title_field, "title")
		self.assertEqual(meta.autoname, "hash")
		self.assertFalse(meta.istable)
		self.assertTrue(frappe.get_meta("Lite Test Record Item").istable)
		self.assertTrue(frappe.get_meta("Lite Test Order").is_submittable)
		self.assertTrue(frappe.get_meta("Lite Test Settings").issingle)
		self.assertTrue(any(p.role == "Lite Test Role" and p.if_owner for p in meta.permissions))

	def test_link_field_lists_are_new_lists(self):
		# as in Frappe, callers may extend them (the test-record generator does) without changing the meta
		meta = frappe.get_meta("Lite Test Record")
		links = meta.get_link_fields()
		links.extend(frappe.get_meta("Lite Test Record Item").get_link_fields() or [frappe._dict()])
		meta.get_dynamic_link_fields().append(frappe._dict())
		self.assertEqual([df.fieldname for df in meta.get_link_fields()], ["category"])
		self.assertEqual(meta.get_dynamic_link_fields(), [])
