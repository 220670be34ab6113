"""Custom DocTypes (custom=1) as on Frappe: DocType + DocField + DocPerm rows, their table, meta,
autonames, permissions, "*" hooks, schema changes, deletion, REST.

Saving a DocType commits (its table is created or altered, DDL commits on MariaDB): every test
uses its own DocType name and drops what it made."""

from __future__ import annotations

import threading

import frappe
import httpx
from frappe.core.doctype.doctype.doctype import (
	InvalidFieldNameError,
	NonUniqueError,
	UniqueFieldnameError,
	WrongOptionsDoctypeLinkError,
)
from frappe.model.meta import trim_table
from frappe.model.utils.rename_field import rename_field
from frappe.tests import IntegrationTestCase

from tests.lite._site_helpers import start_server

PASSWORD = "Custom-Doctype-Pass-1"
OWNER_A = "custom_dt_a@example.com"
OWNER_B = "custom_dt_b@example.com"
OWN_ROLE = "Lite Star Own Records"

# field type -> the declared type of its SQLite column
EVERY_TYPE = {
	"Data": "varchar(140)",
	"Small Text": "text",
	"Text": "text",
	"Long Text": "text",
	"Int": "bigint",
	"Float": "double",
	"Currency": "double",
	"Percent": "double",
	"Check": "int",
	"Date": "date",
	"Datetime": "datetime(6)",
	"Time": "time(6)",
	"Select": "varchar(140)",
	"Link": "varchar(140)",
	"Attach": "text",
	"JSON": "text",
}


def spec(label: str, fieldtype: str = "Data", **extra) -> dict:
	return {"label": label, "fieldtype": fieldtype, **extra}


def columns(doctype: str) -> dict[str, str]:
	return {row[1]: row[2].lower() for row in frappe.db.sql(f"pragma table_info(`tab{doctype}`)")}


def make_user(email: str, roles: tuple[str, ...]) -> None:
	if frappe.db.exists("User", email):
		frappe.delete_doc("User", email, force=True, ignore_permissions=True)
	frappe.get_doc(
		{
			"doctype": "User",
			"email": email,
			"first_name": email.split("@")[0],
			"new_password": PASSWORD,
			"roles": [{"role": role} for role in roles],
		}
	).insert(ignore_permissions=True)


class CustomDocTypeCase(IntegrationTestCase):
	def new_doctype(self, fields: list[dict], **values):
		"""Insert a custom DocType with a unique name; it and its table are removed after the test."""
		name = values.pop("name", None) or f"Lite Star {frappe.generate_hash(length=6)}"
		doc = frappe.get_doc(
			{
				"doctype": "DocType",
				"name": name,
				"module": "Lite Test",
				"custom": 1,
				"fields": fields,
				"permissions": values.pop(
					"permissions",
					[{"role": "System Manager", "read": 1, "write": 1, "create": 1, "delete": 1}],
				),
				**values,
			}
		)
		self.addCleanup(self.drop_doctype, name)
		return doc.insert()

	@staticmethod
	def drop_doctype(name: str) -> None:
		frappe.db.rollback()
		frappe.set_user("Administrator")
		frappe.delete_doc("DocType", name, ignore_permissions=True)
		frappe.db.sql_ddl(f"drop table if exists `tab{name}`")


class TestCreate(CustomDocTypeCase):
	def test_insert_creates_the_table_with_a_column_per_field_type(self):
		fields = [spec(f"F {t}", t) for t in EVERY_TYPE]
		fields[list(EVERY_TYPE).index("Select")]["options"] = "a\nb"
		fields[list(EVERY_TYPE).index("Link")]["options"] = "User"
		dt = self.new_doctype(fields)
		table = columns(dt.name)
		for fieldtype, declared in EVERY_TYPE.items():
			self.assertEqual(table["f_" + frappe.scrub(fieldtype)], declared, fieldtype)
		for standard in ("name", "owner", "creation", "modified", "modified_by", "docstatus", "idx"):
			self.assertIn(standard, table)
		self.assertEqual(frappe.db.get_value("DocType", dt.name, "custom"), 1)
		self.assertEqual(frappe.db.count("DocField", {"parent": dt.name, "parenttype": "DocType"}), 16)

	def test_meta_is_read_from_the_database(self):
		dt = self.new_doctype(
			[
				spec("Title", reqd=1),
				spec("Amount", "Currency", in_list_view=1),
				spec("Status", "Select", options="Open\nClosed", default="Open", in_standard_filter=1),
			],
			title_field="title",
			search_fields="status",
			sort_field="title",
			sort_order="ASC",
			description="Orders",
		)
		meta = frappe.get_meta(dt.name)
		self.assertEqual([df.fieldname for df in meta.fields], ["title", "amount", "status"])
		self.assertEqual(meta.get_field("status").options, "Open\nClosed")
		self.assertEqual(meta.get_field("status").in_standard_filter, 1)
		self.assertEqual(meta.get_field("title").reqd, 1)
		self.assertEqual((meta.title_field, meta.get_title_field()), ("title", "title"))
		self.assertEqual(meta.get_search_fields(), ["status", "name"])
		self.assertEqual(meta.get_list_fields(), ["name", "amount", "title"])
		self.assertEqual((meta.sort_field, meta.sort_order, meta.description), ("title", "ASC", "Orders"))
		self.assertTrue(meta.custom)
		# as Frappe's DocPerm defaults: a row naming only some rights gets the defaults for the others
		self.assertEqual(meta.permissions[0].role, "System Manager")
		self.assertEqual((meta.permissions[0].report, meta.permissions[0].submit), (1, 0))

	def test_records_insert_with_defaults_and_mandatory(self):
		dt = self.new_doctype(
			[spec("Title", reqd=1), spec("Qty", "Int"), spec("Done", "Check"), spec("Stage", default="new")]
		)
		doc = frappe.get_doc({"doctype": dt.name, "title": "one", "qty": "7"}).insert()
		stored = frappe.get_doc(dt.name, doc.name)
		self.assertEqual((stored.title, stored.qty, stored.done, stored.stage), ("one", 7, 0, "new"))
		with self.assertRaises(frappe.MandatoryError):
			frappe.get_doc({"doctype": dt.name, "qty": 1}).insert()

	def test_unique_field_refuses_duplicates(self):
		dt = self.new_doctype([spec("Code", unique=1)])
		frappe.get_doc({"doctype": dt.name, "code": "A1"}).insert()
		with self.assertRaises(frappe.UniqueValidationError):
			frappe.get_doc({"doctype": dt.name, "code": "A1"}).insert()

	def test_invalid_definitions_are_refused(self):
		cases = [
			([spec("X", fieldname="name")], InvalidFieldNameError),
			([spec("X", fieldname="doctype")], frappe.ValidationError),
			([spec("X", fieldname="a b")], frappe.ValidationError),
			([spec("A", fieldname="dup"), spec("B", fieldname="dup")], UniqueFieldnameError),
			([spec("Notes", "Small Text", unique=1)], NonUniqueError),
			([spec("Who", "Link", options="No Such DocType")], WrongOptionsDoctypeLinkError),
			([spec("Who", "Link")], frappe.ValidationError),
			([spec("S", "Select", options="a\nb", default="c")], frappe.ValidationError),
		]
		for fields, error in cases:
			with self.subTest(fields=fields):
				name = f"Lite Star {frappe.generate_hash(length=6)}"
				with self.assertRaises(error):
					frappe.get_doc(
						{
							"doctype": "DocType",
							"name": name,
							"module": "Lite Test",
							"custom": 1,
							"fields": fields,
						}
					).insert()
				self.assertFalse(frappe.db.table_exists(name))
		with self.assertRaises(frappe.ValidationError):
			self.new_doctype([spec("Title")], title_field="nope")
		with self.assertRaises(frappe.NameError):
			self.new_doctype([spec("Title")], name="1 starts with a digit")

	def test_fieldname_is_derived_from_the_label(self):
		dt = self.new_doctype([spec("Contact Email"), spec("Name")])
		self.assertEqual([df.fieldname for df in frappe.get_meta(dt.name).fields], ["contact_email", "name1"])


class TestNaming(CustomDocTypeCase):
	def test_autoincrement(self):
		dt = self.new_doctype([spec("Title")], autoname="autoincrement")
		a = frappe.get_doc({"doctype": dt.name, "title": "a"}).insert()
		b = frappe.get_doc({"doctype": dt.name, "title": "b"}).insert()
		self.assertIsInstance(a.name, int)
		self.assertEqual(b.name, a.name + 1)
		self.assertEqual(columns(dt.name)["name"], "integer")

	def test_hash(self):
		dt = self.new_doctype([spec("Title")], autoname="hash")
		doc = frappe.get_doc({"doctype": dt.name, "title": "a"}).insert()
		self.assertRegex(doc.name, r"^[0-9a-z]{10}$")

	def test_field(self):
		dt = self.new_doctype([spec("Code", reqd=1)], autoname="field:code")
		self.assertEqual(frappe.get_meta(dt.name).get_field("code").unique, 1)  # as Frappe: made unique
		doc = frappe.get_doc({"doctype": dt.name, "code": "C-1"}).insert()
		self.assertEqual(doc.name, "C-1")
		with self.assertRaises(frappe.DuplicateEntryError):
			frappe.get_doc({"doctype": dt.name, "code": "C-1"}).insert()

	def test_expression_series(self):
		prefix = "LS" + frappe.generate_hash(length=4).upper()
		dt = self.new_doctype([spec("Title")], autoname=f"{prefix}-.#####")
		a = frappe.get_doc({"doctype": dt.name, "title": "a"}).insert()
		b = frappe.get_doc({"doctype": dt.name, "title": "b"}).insert()
		self.assertEqual((a.name, b.name), (f"{prefix}-00001", f"{prefix}-00002"))
		with self.assertRaises(frappe.ValidationError):  # a series prefix belongs to one DocType
			self.new_doctype([spec("Title")], autoname=f"{prefix}-.###")

	def test_prompt(self):
		dt = self.new_doctype([spec("Title")], autoname="Prompt")
		doc = frappe.get_doc({"doctype": dt.name, "name": "Chosen Name", "title": "a"}).insert()
		self.assertEqual(doc.name, "Chosen Name")
		with self.assertRaises(frappe.ValidationError):
			frappe.get_doc({"doctype": dt.name, "title": "b"}).insert()


class TestSchemaChanges(CustomDocTypeCase):
	def test_save_adds_renames_reorders_and_removes_fields(self):
		dt = self.new_doctype([spec("Title"), spec("Old Note"), spec("Gone")])
		frappe.get_doc({"doctype": dt.name, "title": "a", "old_note": "kept", "gone": "x"}).insert()
		frappe.db.commit()

		dt = frappe.get_doc("DocType", dt.name)
		by_name = {df.fieldname: df for df in dt.fields}
		by_name["old_note"].fieldname = "note"
		dt.fields = [by_name["old_note"], by_name["title"]]
		dt.append("fields", spec("Score", "Int"))
		dt.save()
		rename_field(dt.name, "old_note", "note")

		meta = frappe.get_meta(dt.name)
		self.assertEqual([df.fieldname for df in meta.fields], ["note", "title", "score"])
		row = frappe.get_all(dt.name, fields=["title", "note", "score"])[0]
		self.assertEqual((row.title, row.note, row.score), ("a", "kept", 0))
		# removed fields keep their column (as on a bench) until trim_table drops it
		self.assertIn("gone", columns(dt.name))
		self.assertEqual(sorted(trim_table(dt.name)), ["gone", "old_note"])
		self.assertEqual(sorted(trim_table(dt.name, dry_run=False)), ["gone", "old_note"])
		self.assertNotIn("gone", columns(dt.name))
		self.assertEqual(frappe.get_doc(dt.name, frappe.get_all(dt.name, pluck="name")[0]).note, "kept")

	def test_type_change_converts_the_column(self):
		dt = self.new_doctype([spec("Code", unique=1), spec("Amount")])
		doc = frappe.get_doc({"doctype": dt.name, "code": "c1", "amount": "12"}).insert()
		frappe.get_doc({"doctype": dt.name, "code": "c2", "amount": "9"}).insert()
		dt = frappe.get_doc("DocType", dt.name)
		dt.fields[1].fieldtype = "Int"
		dt.save()
		self.assertEqual(columns(dt.name)["amount"], "bigint")
		self.assertEqual(frappe.get_all(dt.name, pluck="amount", order_by="amount asc"), [9, 12])
		self.assertEqual(frappe.db.sql(f"select typeof(amount) from `tab{dt.name}` limit 1")[0][0], "integer")
		self.assertEqual(frappe.get_doc(dt.name, doc.name).amount, 12)
		with self.assertRaises(frappe.UniqueValidationError):  # the unique index survives the rebuild
			frappe.get_doc({"doctype": dt.name, "code": "c1"}).insert()

	def test_unique_needs_unique_values(self):
		dt = self.new_doctype([spec("Code")])
		for _ in range(2):
			frappe.get_doc({"doctype": dt.name, "code": "same"}).insert()
		dt = frappe.get_doc("DocType", dt.name)
		dt.fields[0].unique = 1
		with self.assertRaises(NonUniqueError):
			dt.save()

	def test_meta_follows_a_change_made_by_another_process(self):
		dt = self.new_doctype([spec("Title")])
		self.assertEqual(frappe.get_meta(dt.name).get_field("title").label, "Title")
		# another process: rows changed and the DocType's modified moved on
		frappe.db.sql("update `tabDocField` set label='Heading' where parent=%s", (dt.name,))
		frappe.db.sql("update `tabDocType` set modified=%s where name=%s", (frappe.utils.now(), dt.name))
		frappe.local.meta_cache.clear()  # a new request
		self.assertEqual(frappe.get_meta(dt.name).get_field("title").label, "Heading")

	def test_a_new_thread_sees_the_new_doctype(self):
		dt = self.new_doctype([spec("Title")])
		frappe.db.commit()
		seen = {}
		site, sites_path = frappe.local.site, frappe.local.sites_path

		def other():
			from frappe_lite.context import connected

			with connected(site, sites_path):
				seen["fields"] = [df.fieldname for df in frappe.get_meta(dt.name).fields]

		thread = threading.Thread(target=other)
		thread.start()
		thread.join()
		self.assertEqual(seen["fields"], ["title"])


class TestDelete(CustomDocTypeCase):
	def test_delete_removes_the_definition_and_keeps_the_table(self):
		dt = self.new_doctype([spec("Title")])
		frappe.get_doc({"doctype": dt.name, "title": "a"}).insert()
		frappe.delete_doc("DocType", dt.name)
		self.assertFalse(frappe.db.exists("DocType", dt.name))
		self.assertEqual(frappe.db.count("DocField", {"parent": dt.name}), 0)
		self.assertEqual(frappe.db.count("DocPerm", {"parent": dt.name}), 0)
		with self.assertRaises(frappe.DoesNotExistError):
			frappe.get_meta(dt.name)
		# as on Frappe: the table stays until it is dropped
		self.assertTrue(frappe.db.table_exists(dt.name))
		frappe.db.sql_ddl(f"drop table `tab{dt.name}`")
		self.assertFalse(frappe.db.table_exists(dt.name))

	def test_standard_doctype_cannot_be_deleted(self):
		with self.assertRaises(frappe.ValidationError) as caught:
			frappe.delete_doc("DocType", "Lite Test Record")
		self.assertIn("Standard DocType can not be deleted", str(caught.exception))
		self.assertTrue(frappe.db.exists("DocType", "Lite Test Record"))

	def test_a_link_to_a_record_blocks_its_deletion(self):
		target = self.new_doctype([spec("Title")], autoname="field:title")
		source = self.new_doctype([spec("Target", "Link", options=target.name)])
		frappe.get_doc({"doctype": target.name, "title": "t1"}).insert()
		frappe.get_doc({"doctype": source.name, "target": "t1"}).insert()
		with self.assertRaises(frappe.LinkExistsError):
			frappe.delete_doc(target.name, "t1")


class TestPermissions(CustomDocTypeCase):
	@classmethod
	def setUpClass(cls):
		super().setUpClass()
		if not frappe.db.exists("Role", OWN_ROLE):
			frappe.get_doc({"doctype": "Role", "role_name": OWN_ROLE, "desk_access": 1}).insert()
		make_user(OWNER_A, (OWN_ROLE,))
		make_user(OWNER_B, (OWN_ROLE,))
		frappe.db.commit()

	@classmethod
	def tearDownClass(cls):
		frappe.db.rollback()
		frappe.set_user("Administrator")
		for user in (OWNER_A, OWNER_B):
			frappe.delete_doc("User", user, force=True, ignore_permissions=True)
		frappe.db.commit()
		super().tearDownClass()

	def insert_as(self, user: str, doctype: str, **values):
		frappe.set_user(user)
		try:
			return frappe.get_doc({"doctype": doctype, **values}).insert()
		finally:
			frappe.set_user("Administrator")

	def test_docperm_rows_and_if_owner_decide_access(self):
		dt = self.new_doctype(
			[spec("Title")],
			permissions=[
				{"role": "System Manager", "read": 1, "write": 1, "create": 1, "delete": 1},
				{"role": OWN_ROLE, "read": 1, "write": 1, "create": 1, "delete": 0, "if_owner": 1},
			],
		)
		mine = self.insert_as(OWNER_A, dt.name, title="a's")
		theirs = self.insert_as(OWNER_B, dt.name, title="b's")
		self.assertTrue(frappe.has_permission(dt.name, "read", mine, user=OWNER_A))
		self.assertFalse(frappe.has_permission(dt.name, "read", theirs, user=OWNER_A))
		self.assertFalse(frappe.has_permission(dt.name, "delete", mine, user=OWNER_A))
		frappe.set_user(OWNER_A)
		self.assertEqual(frappe.get_list(dt.name, pluck="name"), [mine.name])
		with self.assertRaises(frappe.PermissionError):
			frappe.get_doc(dt.name, theirs.name).check_permission("read")
		frappe.set_user("Administrator")
		self.assertFalse(frappe.has_permission(dt.name, "read", user="Guest"))

	def test_without_docperm_a_role_gets_nothing(self):
		dt = self.new_doctype([spec("Title")])
		frappe.set_user(OWNER_A)
		self.assertFalse(frappe.has_permission(dt.name, "read"))
		with self.assertRaises(frappe.PermissionError):
			frappe.get_list(dt.name)
		with self.assertRaises(frappe.PermissionError):
			frappe.get_doc({"doctype": dt.name, "title": "x"}).insert()

	def test_star_hooks_apply_to_custom_doctypes(self):
		dt = self.new_doctype(
			[spec("Title")], permissions=[{"role": OWN_ROLE, "read": 1, "write": 1, "create": 1}]
		)
		shown = self.insert_as(OWNER_A, dt.name, title="shown")
		hidden = self.insert_as(OWNER_A, dt.name, title="hidden by star")
		self.assertTrue(frappe.has_permission(dt.name, "read", shown, user=OWNER_A))
		self.assertFalse(frappe.has_permission(dt.name, "read", hidden, user=OWNER_A))
		frappe.set_user(OWNER_A)
		self.assertEqual(frappe.get_list(dt.name, pluck="name"), [shown.name])
		frappe.set_user("Administrator")
		self.assertEqual(len(frappe.get_all(dt.name)), 2)  # get_all applies no permission conditions

	def test_only_administrator_deletes_a_standard_doctype(self):
		make_user("custom_dt_sm@example.com", ("System Manager",))
		self.addCleanup(
			frappe.delete_doc, "User", "custom_dt_sm@example.com", force=True, ignore_permissions=True
		)
		frappe.set_user("custom_dt_sm@example.com")
		try:
			with self.assertRaises(frappe.ValidationError):
				frappe.delete_doc("DocType", "Lite Test Record", force=True)
		finally:
			frappe.set_user("Administrator")
		self.assertTrue(frappe.db.exists("DocType", "Lite Test Record"))


class TestRest(CustomDocTypeCase):
	def test_resource_api_and_client_work_on_a_custom_doctype(self):
		dt = self.new_doctype([spec("Title", reqd=1), spec("Qty", "Int")], autoname="autoincrement")
		frappe.db.commit()
		server, base_url = start_server()
		self.addCleanup(server.shutdown)
		auth = {"Authorization": "Basic " + _basic_admin()}
		with httpx.Client(base_url=base_url, headers=auth, timeout=30) as client:
			created = client.post(f"/api/resource/{dt.name}", json={"title": "via rest", "qty": 3})
			self.assertEqual(created.status_code, 200, created.text)
			name = created.json()["data"]["name"]
			self.addCleanup(frappe.db.sql, f"delete from `tab{dt.name}`")
			listed = client.get(f"/api/resource/{dt.name}", params={"fields": '["name","title","qty"]'})
			self.assertEqual(listed.json()["data"], [{"name": name, "title": "via rest", "qty": 3}])
			updated = client.put(f"/api/resource/{dt.name}/{name}", json={"qty": 4})
			self.assertEqual(updated.json()["data"]["qty"], 4)
			missing = client.post(f"/api/resource/{dt.name}", json={"qty": 1})
			self.assertEqual(missing.status_code, 417)
			value = client.get(
				"/api/method/frappe.client.get_value",
				params={"doctype": dt.name, "filters": str(name), "fieldname": "title"},
			)
			self.assertEqual(value.json()["message"], {"title": "via rest"})
			deleted = client.delete(f"/api/resource/{dt.name}/{name}")
			self.assertEqual(deleted.status_code, 202)


def _basic_admin() -> str:
	"""Administrator's API key and secret as a Basic credential."""
	import base64

	from frappe.core.doctype.user.user import generate_keys

	secret = generate_keys("Administrator")["api_secret"]
	key = frappe.db.get_value("User", "Administrator", "api_key")
	frappe.db.commit()
	return base64.b64encode(f"{key}:{secret}".encode()).decode()
