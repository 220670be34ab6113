"""Lifecycle order of controller methods and doc_events of two installed apps."""

import frappe
from frappe.tests import IntegrationTestCase
from lite_test_app.events import DOC_EVENTS, clear_calls, get_calls


def expected(*events: str) -> list[tuple[str, str]]:
	"""Controller method first, then per-DocType hooks, then "*" hooks, each in app install order."""
	out = []
	for event in events:
		out.append(("controller", event))
		if event in DOC_EVENTS:
			out += [("app1:doctype", event), ("app2:doctype", event), ("app1:*", event), ("app2:*", event)]
	return out


class TestLifecycle(IntegrationTestCase):
	def setUp(self):
		clear_calls()

	def test_hooks_of_both_apps_are_merged_in_install_order(self):
		doc_events = frappe.get_hooks("doc_events")
		self.assertEqual(
			doc_events["Lite Test Record"]["validate"],
			["lite_test_app.events.on_record_event", "lite_test_app_two.events.on_record_event"],
		)
		star = doc_events["*"]["on_update"]
		self.assertLess(
			star.index("lite_test_app.events.on_any_event"),
			star.index("lite_test_app_two.events.on_any_event"),
		)
		self.assertIn("lite_test_app.events.tick", frappe.get_hooks("scheduler_events")["all"])
		installed = frappe.get_installed_apps()
		self.assertLess(installed.index("lite_test_app"), installed.index("lite_test_app_two"))

	def test_insert_order(self):
		frappe.get_doc({"doctype": "Lite Test Record", "title": "order"}).insert()
		self.assertEqual(
			get_calls("Lite Test Record"),
			expected(
				"before_insert",
				"before_naming",
				"autoname",
				"before_validate",
				"validate",
				"before_save",
				"after_insert",
				"on_update",
				"on_change",
			),
		)

	def test_save_order(self):
		doc = frappe.get_doc({"doctype": "Lite Test Record", "title": "order"}).insert()
		clear_calls()
		doc.title = "changed"
		doc.save()
		self.assertEqual(
			get_calls("Lite Test Record"),
			expected("before_validate", "validate", "before_save", "on_update", "on_change"),
		)

	def test_hooks_see_the_named_document(self):
		doc = frappe.get_doc({"doctype": "Lite Test Record", "title": "named"}).insert()
		events = [event for source, event in get_calls("Lite Test Record", name=doc.name, source="app2:*")]
		self.assertEqual(
			events, ["before_validate", "validate", "before_save", "after_insert", "on_update", "on_change"]
		)

	def test_submit_and_cancel_order(self):
		doc = frappe.get_doc({"doctype": "Lite Test Order", "customer": "c"}).insert()
		self.assertEqual(doc.docstatus, 0)
		clear_calls()
		doc.submit()
		self.assertEqual(doc.docstatus, 1)
		self.assertEqual(frappe.db.get_value("Lite Test Order", doc.name, "docstatus"), 1)
		self.assertEqual(
			get_calls("Lite Test Order"),
			expected("before_validate", "validate", "before_submit", "on_update", "on_submit", "on_change"),
		)
		clear_calls()
		doc.cancel()
		self.assertEqual(frappe.db.get_value("Lite Test Order", doc.name, "docstatus"), 2)
		self.assertEqual(get_calls("Lite Test Order"), expected("before_cancel", "on_cancel", "on_change"))

	def test_insert_as_submitted(self):
		frappe.get_doc({"doctype": "Lite Test Order", "customer": "c", "docstatus": 1}).insert()
		self.assertEqual(
			get_calls("Lite Test Order"),
			expected(
				"before_insert",
				"before_validate",
				"validate",
				"before_submit",
				"after_insert",
				"on_update",
				"on_submit",
				"on_change",
			),
		)

	def test_update_after_submit(self):
		doc = frappe.get_doc({"doctype": "Lite Test Order", "customer": "c", "docstatus": 1}).insert()
		clear_calls()
		doc.remarks = "allowed on submit"
		doc.save()
		self.assertEqual(frappe.db.get_value("Lite Test Order", doc.name, "remarks"), "allowed on submit")
		self.assertEqual(
			[e for s, e in get_calls("Lite Test Order", source="controller")],
			["before_update_after_submit", "on_update_after_submit", "on_change"],
		)
		doc.reload()
		doc.customer = "changed"
		with self.assertRaises(frappe.UpdateAfterSubmitError):
			doc.save()

	def test_rows_cannot_change_after_submit(self):
		doc = frappe.get_doc(
			{
				"doctype": "Lite Test Order",
				"customer": "c",
				"docstatus": 1,
				"items": [{"item_name": "a", "qty": 1}],
			}
		).insert()
		doc.items[0].qty = 5
		with self.assertRaises(frappe.UpdateAfterSubmitError):
			doc.save()
		doc.reload()
		doc.append("items", {"item_name": "b"})
		with self.assertRaises(frappe.UpdateAfterSubmitError):
			doc.save()

	def test_delete_order(self):
		doc = frappe.get_doc({"doctype": "Lite Test Record", "title": "to delete"}).insert()
		clear_calls()
		frappe.delete_doc("Lite Test Record", doc.name)
		self.assertEqual(get_calls("Lite Test Record"), expected("on_trash", "on_change", "after_delete"))
		self.assertFalse(frappe.db.exists("Lite Test Record", doc.name))

	def test_submitted_document_cannot_be_deleted(self):
		doc = frappe.get_doc({"doctype": "Lite Test Order", "customer": "c", "docstatus": 1}).insert()
		with self.assertRaises(frappe.ValidationError):
			frappe.delete_doc("Lite Test Order", doc.name)
		self.assertTrue(frappe.db.exists("Lite Test Order", doc.name))
		doc.cancel()
		frappe.delete_doc("Lite Test Order", doc.name)
		self.assertFalse(frappe.db.exists("Lite Test Order", doc.name))

	def test_docstatus_transitions(self):
		doc = frappe.get_doc({"doctype": "Lite Test Order", "customer": "c"}).insert()
		with self.assertRaises(frappe.DocstatusTransitionError):
			doc.cancel()
		doc.reload()
		doc.submit()
		doc.cancel()
		doc.reload()
		doc.customer = "edit after cancel"
		with self.assertRaises(frappe.ValidationError):
			doc.save()

	def test_error_in_validate_stops_insert(self):
		doc = frappe.get_doc({"doctype": "Lite Test Record", "title": "invalid"})
		with self.assertRaises(frappe.ValidationError):
			doc.insert()
		self.assertFalse(frappe.db.exists("Lite Test Record", {"title": "invalid"}))
		self.assertNotIn(("controller", "after_insert"), get_calls("Lite Test Record"))

	def test_ignore_validate_skips_validate_and_before_save(self):
		doc = frappe.get_doc({"doctype": "Lite Test Record", "title": "invalid"})
		doc.flags.ignore_validate = True
		doc.insert()
		self.assertTrue(frappe.db.exists("Lite Test Record", doc.name))
		events = [e for s, e in get_calls("Lite Test Record", source="controller")]
		self.assertNotIn("validate", events)
		self.assertNotIn("before_save", events)
		self.assertIn("before_validate", events)
		self.assertIn("on_update", events)
		self.assertNotIn(("app1:*", "validate"), get_calls("Lite Test Record"))

	def test_run_method_runs_controller_and_hooks(self):
		doc = frappe.get_doc({"doctype": "Lite Test Record", "title": "run", "qty": 2}).insert()
		self.assertEqual(doc.run_method("double_qty", 3), 6)
		self.assertEqual(doc.qty, 6)
		clear_calls()
		doc.run_method("validate")
		self.assertEqual(get_calls("Lite Test Record"), expected("validate"))

	def test_doc_events_star_fire_for_other_doctypes(self):
		frappe.get_doc({"doctype": "Lite Test Hash", "title": "star"}).insert()
		calls = get_calls("Lite Test Hash")
		self.assertIn(("app1:*", "on_update"), calls)
		self.assertIn(("app2:*", "on_update"), calls)
		self.assertNotIn(("app1:doctype", "on_update"), calls)

	def test_doc_events_for_a_tuple_of_doctypes(self):
		frappe.get_doc({"doctype": "Lite Test Hash", "title": "grouped"}).insert()
		frappe.get_doc({"doctype": "Lite Test Format", "title": "grouped"}).insert()
		frappe.get_doc({"doctype": "Lite Test UUID", "title": "not grouped"}).insert()
		self.assertIn(("app2:grouped", "on_update"), get_calls("Lite Test Hash"))
		self.assertIn(("app2:grouped", "on_update"), get_calls("Lite Test Format"))
		self.assertNotIn(("app2:grouped", "on_update"), get_calls("Lite Test UUID"))

	def test_timestamps_and_owner(self):
		doc = frappe.get_doc({"doctype": "Lite Test Record", "title": "stamps"}).insert()
		self.assertEqual(doc.owner, frappe.session.user)
		self.assertEqual(doc.modified_by, frappe.session.user)
		self.assertIsNotNone(doc.creation)
		self.assertEqual(doc.creation, doc.modified)
		first_modified = doc.modified
		doc.title = "stamps 2"
		doc.save()
		self.assertGreater(doc.modified, first_modified)
		stored = frappe.db.get_value("Lite Test Record", doc.name, "creation")
		self.assertEqual(frappe.utils.get_datetime(stored), frappe.utils.get_datetime(doc.creation))

	def test_owner_and_creation_cannot_be_chosen(self):
		doc = frappe.get_doc(
			{
				"doctype": "Lite Test Record",
				"title": "forged",
				"owner": "someone@example.com",
				"creation": "2001-01-01 00:00:00",
			}
		).insert()
		self.assertEqual(doc.owner, frappe.session.user)
		self.assertEqual(frappe.db.get_value("Lite Test Record", doc.name, "owner"), frappe.session.user)
		self.assertGreater(frappe.utils.get_datetime(doc.creation).year, 2001)

	def test_is_new(self):
		doc = frappe.new_doc("Lite Test Record")
		doc.title = "new"
		self.assertTrue(doc.is_new())
		doc.insert()
		self.assertFalse(doc.is_new())
		self.assertFalse(frappe.get_doc("Lite Test Record", doc.name).is_new())
