"""Field validation: Link, mandatory, Select, unique, length, numbers, JSON, fetch_from, defaults, passwords."""

import frappe
from frappe.tests import IntegrationTestCase
from frappe.utils.password import get_decrypted_password
from lite_test_app.testing import make_category


def record(**values):
	return frappe.get_doc({"doctype": "Lite Test Record", "title": "validation", **values})


class TestValidation(IntegrationTestCase):
	def test_invalid_link_raises(self):
		with self.assertRaises(frappe.LinkValidationError):
			record(category="No Such Category 404").insert()

	def test_valid_link_and_fetch_from(self):
		make_category("Validation Cat", description="Fetched text")
		doc = record(category="Validation Cat").insert()
		self.assertEqual(doc.category_description, "Fetched text")
		self.assertEqual(
			frappe.db.get_value("Lite Test Record", doc.name, "category_description"), "Fetched text"
		)

	def test_link_value_takes_the_stored_name(self):
		make_category("Case Cat")
		doc = record(category="case cat").insert()
		self.assertEqual(doc.category, "Case Cat")

	def test_fetch_from_follows_a_changed_link(self):
		make_category("Fetch One", description="one")
		make_category("Fetch Two", description="two")
		doc = record(category="Fetch One").insert()
		doc.category = "Fetch Two"
		doc.save()
		self.assertEqual(frappe.db.get_value("Lite Test Record", doc.name, "category_description"), "two")

	def test_dynamic_link(self):
		target = record().insert()
		note = frappe.get_doc(
			{
				"doctype": "Lite Test Two Note",
				"title": "dyn",
				"reference_doctype": "Lite Test Record",
				"reference_name": target.name,
			}
		).insert()
		self.assertEqual(note.reference_name, target.name)
		with self.assertRaises(frappe.LinkValidationError):
			frappe.get_doc(
				{
					"doctype": "Lite Test Two Note",
					"title": "dyn",
					"reference_doctype": "Lite Test Record",
					"reference_name": "missing-404",
				}
			).insert()
		with self.assertRaises(frappe.LinkValidationError):
			frappe.get_doc(
				{"doctype": "Lite Test Two Note", "title": "dyn", "reference_doctype": "No Such DocType 404"}
			).insert()

	def test_ignore_links(self):
		doc = record(category="Dangling Category 404")
		doc.flags.ignore_links = True
		doc.insert()
		self.assertEqual(
			frappe.db.get_value("Lite Test Record", doc.name, "category"), "Dangling Category 404"
		)
		other = record(category="Dangling Category 404").insert(ignore_links=True)
		self.assertTrue(frappe.db.exists("Lite Test Record", other.name))

	def test_link_checked_on_save(self):
		doc = record().insert()
		doc.category = "Missing On Save 404"
		with self.assertRaises(frappe.LinkValidationError):
			doc.save()

	def test_mandatory(self):
		with self.assertRaises(frappe.MandatoryError):
			frappe.get_doc({"doctype": "Lite Test Record"}).insert()
		with self.assertRaises(frappe.MandatoryError):
			record(title="").insert()
		doc = frappe.get_doc({"doctype": "Lite Test Record"})
		doc.flags.ignore_mandatory = True
		doc.insert()
		self.assertTrue(frappe.db.exists("Lite Test Record", doc.name))
		other = frappe.get_doc({"doctype": "Lite Test Record"}).insert(ignore_mandatory=True)
		self.assertTrue(frappe.db.exists("Lite Test Record", other.name))

	def test_select_options(self):
		with self.assertRaises(frappe.ValidationError):
			record(status="Bogus").insert()
		doc = record(status="Closed").insert()
		self.assertEqual(doc.status, "Closed")

	def test_defaults(self):
		doc = record().insert()
		self.assertEqual(doc.status, "Open")
		self.assertEqual(doc.priority, 3)
		self.assertEqual(doc.is_active, 1)
		new = frappe.new_doc("Lite Test Record")
		self.assertEqual(new.status, "Open")
		self.assertEqual(new.is_active, 1)

	def test_numeric_coercion(self):
		doc = record(qty="5", rate="2.5", is_active=True).insert()
		self.assertEqual(doc.qty, 5)
		self.assertEqual(doc.rate, 2.5)
		self.assertEqual(doc.is_active, 1)
		loaded = frappe.get_doc("Lite Test Record", doc.name)
		self.assertIsInstance(loaded.qty, int)
		self.assertIsInstance(loaded.rate, float)
		self.assertEqual((loaded.qty, loaded.rate, loaded.is_active), (5, 2.5, 1))
		empty = frappe.get_doc("Lite Test Record", record(is_active=0).insert().name)
		self.assertEqual((empty.qty, empty.rate, empty.is_active), (0, 0.0, 0))
		self.assertEqual(frappe.db.get_value("Lite Test Record", doc.name, "qty"), 5)
		self.assertEqual(frappe.db.get_value("Lite Test Record", doc.name, "rate"), 2.5)

	def test_json_field(self):
		payload = {"a": 1, "nested": {"list": [1, 2, "three"]}}
		doc = record(data=payload).insert()
		loaded = frappe.get_doc("Lite Test Record", doc.name)
		self.assertEqual(frappe.parse_json(loaded.data), payload)
		self.assertEqual(
			frappe.parse_json(frappe.db.get_value("Lite Test Record", doc.name, "data")), payload
		)
		as_text = record(data='{"b": [true, null]}').insert()
		self.assertEqual(
			frappe.parse_json(frappe.get_doc("Lite Test Record", as_text.name).data), {"b": [True, None]}
		)

	def test_unique_field(self):
		record(code="UNIQUE-1").insert()
		with self.assertRaises(frappe.UniqueValidationError):
			record(code="UNIQUE-1").insert()
		self.assertEqual(frappe.db.count("Lite Test Record", {"code": "UNIQUE-1"}), 1)

	def test_data_length(self):
		with self.assertRaises(frappe.CharacterLengthExceededError):
			record(title="x" * 141).insert()
		doc = record(notes="long text " * 100).insert()
		self.assertEqual(len(frappe.db.get_value("Lite Test Record", doc.name, "notes")), 1000)


class TestPasswordFields(IntegrationTestCase):
	def test_password_is_encrypted_and_masked(self):
		doc = record(secret="s3cret-value").insert()
		self.assertNotEqual(doc.secret, "s3cret-value")
		stored = frappe.db.get_value("Lite Test Record", doc.name, "secret")
		self.assertNotEqual(stored, "s3cret-value")
		auth = frappe.db.sql(
			"select password from `__Auth` where doctype=%s and name=%s and fieldname=%s",
			("Lite Test Record", doc.name, "secret"),
		)
		self.assertEqual(len(auth), 1)
		self.assertNotIn("s3cret-value", auth[0][0])
		loaded = frappe.get_doc("Lite Test Record", doc.name)
		self.assertNotEqual(loaded.get("secret"), "s3cret-value")
		self.assertNotIn("s3cret-value", frappe.as_json(loaded.as_dict()))
		self.assertEqual(loaded.get_password("secret"), "s3cret-value")
		self.assertEqual(get_decrypted_password("Lite Test Record", doc.name, "secret"), "s3cret-value")

	def test_saving_the_masked_value_keeps_the_password(self):
		doc = record(secret="keep-me").insert()
		loaded = frappe.get_doc("Lite Test Record", doc.name)
		loaded.title = "changed"
		loaded.save()
		self.assertEqual(get_decrypted_password("Lite Test Record", doc.name, "secret"), "keep-me")

	def test_changing_the_password(self):
		doc = record(secret="first").insert()
		loaded = frappe.get_doc("Lite Test Record", doc.name)
		loaded.secret = "second"
		loaded.save()
		self.assertEqual(frappe.get_doc("Lite Test Record", doc.name).get_password("secret"), "second")

	def test_no_password(self):
		doc = record().insert()
		self.assertIsNone(doc.get_password("secret", raise_exception=False))

	def test_password_removed_with_document(self):
		doc = record(secret="gone").insert()
		doc.delete()
		self.assertFalse(
			frappe.db.sql(
				"select name from `__Auth` where doctype=%s and name=%s", ("Lite Test Record", doc.name)
			)
		)


class TestStaleSave(IntegrationTestCase):
	def test_saving_a_stale_copy_raises(self):
		doc = record().insert()
		first = frappe.get_doc("Lite Test Record", doc.name)
		second = frappe.get_doc("Lite Test Record", doc.name)
		first.title = "first writer"
		first.save()
		second.title = "second writer"
		with self.assertRaises(frappe.TimestampMismatchError):
			second.save()
		self.assertEqual(frappe.db.get_value("Lite Test Record", doc.name, "title"), "first writer")
		second.reload()
		second.title = "second writer after reload"
		second.save()
		self.assertEqual(
			frappe.db.get_value("Lite Test Record", doc.name, "title"), "second writer after reload"
		)

	def test_same_copy_saves_twice(self):
		doc = record().insert()
		doc.title = "one"
		doc.save()
		doc.title = "two"
		doc.save()
		self.assertEqual(frappe.db.get_value("Lite Test Record", doc.name, "title"), "two")
