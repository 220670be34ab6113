"""The field-write matrix of docs/security.md ("The trust boundary"): every field of every Huf DocType is
classed there, the classes agree with the code, and REST-style writes of engine and ownership fields are
refused or discarded for Guest, Huf User, Huf Manager, a capability-restricted user and System Manager.

Writes go through the same calls as Frappe's REST API: `frappe.new_doc(doctype, **data).insert()` for
POST /api/resource and `doc.update(data); doc.save()` for PUT (frappe/api/v1.py); over HTTP the same
mechanism is shown in huf/tests/test_trust_boundary.py and huf/ai/flows/tests/test_flow_boundary.py.
"""

import os
import re

import frappe
from frappe.model import display_fieldtypes
from frappe.utils.password import get_decrypted_password

from huf.huf.capabilities import forget_capabilities
from huf.huf.engine_owned import ENGINE_DOCTYPES, OWNERSHIP_FIELDS, engine_fields, ownership_fields
from huf.tests.support.case import HufTestCase
from huf.tests.support.factories import make_user
from huf.tests.support.runs import delete_users

MANAGER = "matrix-manager@example.com"
USER = "matrix-user@example.com"
RESTRICTED = "matrix-restricted@example.com"  # a Huf Manager whose Huf Role holds only chat.use
SYSTEM_MANAGER = "matrix-system-manager@example.com"
RESTRICTED_ROLE = "Matrix Chat Only"
WRITERS = ("Guest", USER, MANAGER, RESTRICTED, SYSTEM_MANAGER)


def read_matrix() -> tuple[dict, dict]:
	"""({DocType: {"kind", "engine", "ownership", "open"}}, {child DocType: fields}) from docs/security.md."""
	path = os.path.join(os.path.dirname(frappe.get_app_path("huf")), "docs", "security.md")
	with open(path, encoding="utf-8") as handle:
		text = handle.read()
	block = text.split("<!-- field-write-matrix -->", 1)[1].split("<!-- /field-write-matrix -->", 1)[0]
	parents, children = {}, {}
	for line in block.splitlines():
		cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
		if (
			not line.startswith("|")
			or cells[0].startswith("---")
			or cells[0] in ("DocType",)
			or "DocType (" in cells[0]
		):
			continue
		fields = [set(re.findall(r"`([a-z0-9_]+)`", cell)) for cell in cells[1:]]
		if len(cells) == 5:
			parents[cells[0]] = {
				"kind": cells[1],
				"engine": fields[1],
				"ownership": fields[2],
				"open": fields[3],
			}
		elif len(cells) == 2:
			children[cells[0]] = fields[0]
	return parents, children


def value_fields(doctype: str) -> set[str]:
	return {f.fieldname for f in frappe.get_meta(doctype).fields if f.fieldtype not in display_fieldtypes}


def huf_doctypes() -> list[dict]:
	return frappe.get_all("DocType", filters={"module": "Huf"}, fields=["name", "istable", "issingle"])


class TestMatrixMatchesTheCode(HufTestCase):
	def test_every_huf_doctype_and_field_has_a_row(self):
		parents, children = read_matrix()
		for row in huf_doctypes():
			with self.subTest(doctype=row.name):
				if row.istable:
					self.assertIn(row.name, children, "a child DocType missing from the matrix")
					self.assertEqual(children[row.name], value_fields(row.name))
					continue
				self.assertIn(row.name, parents, "a DocType missing from the matrix")
				spec = parents[row.name]
				listed = spec["engine"] | spec["open"] | (spec["ownership"] - {"owner"})
				self.assertEqual(listed, value_fields(row.name), "fields added, removed or listed twice")
				self.assertEqual(spec["ownership"], set(ownership_fields(row.name)))
				if row.name in ENGINE_DOCTYPES:
					self.assertEqual(spec["kind"], "engine")
					self.assertEqual(spec["engine"], value_fields(row.name))
				else:
					self.assertEqual(spec["kind"], "single" if row.issingle else "record")
					self.assertEqual(spec["engine"], set(engine_fields(row.name)))
		self.assertEqual({d.name for d in huf_doctypes()}, set(parents) | set(children))

	def test_engine_records_and_fields_are_read_only_in_desk(self):
		for doctype in ENGINE_DOCTYPES:
			meta = frappe.get_meta(doctype)
			with self.subTest(doctype=doctype):
				self.assertTrue(meta.in_create, "Desk must not offer New")
				editable = [
					f.fieldname
					for f in meta.fields
					if f.fieldtype not in display_fieldtypes and not f.read_only
				]
				self.assertEqual(editable, [])
		for doctype, fields in OWNERSHIP_FIELDS.items():
			self.assertTrue(set(fields) <= value_fields(doctype))


class TestFieldWrites(HufTestCase):
	@classmethod
	def setUpClass(cls):
		super().setUpClass()
		make_user(MANAGER, "Huf Manager")
		make_user(USER, "Huf User")
		make_user(RESTRICTED, "Huf Manager")
		make_user(SYSTEM_MANAGER, "System Manager", "Huf Manager")
		if not frappe.db.exists("Huf Role", RESTRICTED_ROLE):
			frappe.get_doc(
				{
					"doctype": "Huf Role",
					"role_name": RESTRICTED_ROLE,
					"frappe_role": "Huf Manager",
					"permissions": [{"capability": "chat.use"}],
				}
			).insert(ignore_permissions=True)
		frappe.get_doc(
			{"doctype": "Huf User Role", "user": RESTRICTED, "huf_role": RESTRICTED_ROLE, "enabled": 1}
		).insert(ignore_permissions=True)
		frappe.db.commit()
		cls.addClassCleanup(cls.cleanup)

	@classmethod
	def cleanup(cls):
		frappe.db.rollback()
		frappe.db.delete("Huf User Role", {"user": RESTRICTED})
		frappe.db.delete("Huf Role Permission", {"parent": RESTRICTED_ROLE})
		frappe.db.delete("Huf Role", {"name": RESTRICTED_ROLE})
		forget_capabilities()  # deleted without the controllers
		delete_users([MANAGER, USER, RESTRICTED, SYSTEM_MANAGER])
		frappe.db.commit()

	def test_nobody_inserts_an_engine_record(self):
		for doctype in sorted(ENGINE_DOCTYPES):
			for user in (*WRITERS, "Administrator"):
				with self.subTest(doctype=doctype, user=user):
					refused = self.attempt(user, lambda dt=doctype: frappe.new_doc(dt, **sample(dt)).insert())
					self.assertIsInstance(refused, frappe.PermissionError)
					self.assertFalse(
						frappe.db.count(doctype, {"creation": (">=", self.started)}) > self.count0[doctype]
					)

	def test_engine_and_ownership_fields_keep_their_stored_values(self):
		parents, _children = read_matrix()
		for doctype, spec in sorted(parents.items()):
			# a record of its own: one left by other tests may link to what they deleted since
			name = doctype if spec["kind"] == "single" else new_record(doctype)
			for fieldname in sorted(spec["engine"] | spec["ownership"]):
				field = frappe.get_meta(doctype).get_field(fieldname)
				if field and field.fieldtype in ("Table", "Table MultiSelect"):
					continue
				for user in WRITERS:
					with self.subTest(doctype=doctype, field=fieldname, user=user):
						before = stored(doctype, name, fieldname, field)
						forged = different_value(field, before, fieldname)
						refused = self.attempt(user, lambda: put(doctype, name, {fieldname: forged}))  # noqa: B023
						after = stored(doctype, name, fieldname, field)
						if fieldname not in spec["ownership"]:
							# kept as stored (a controller may still compute it on a save it allowed)
							self.assertNotEqual(after, forged, f"{user} wrote an engine field")
						elif user != SYSTEM_MANAGER or spec["kind"] == "engine":
							self.assertIsInstance(refused, frappe.PermissionError)
							self.assertEqual(after, before, f"{user} changed whose it is")

	def test_a_system_manager_may_reassign_a_conversation(self):
		name = new_record("Agent Conversation")
		self.assertIsNone(
			self.attempt(SYSTEM_MANAGER, lambda: put("Agent Conversation", name, {"user": USER}))
		)
		self.assertEqual(frappe.db.get_value("Agent Conversation", name, "user"), USER)

	def setUp(self):
		super().setUp()
		self.started = frappe.utils.now_datetime()
		self.count0 = {doctype: frappe.db.count(doctype) for doctype in ENGINE_DOCTYPES}

	def attempt(self, user: str, write) -> Exception | None:
		"""Run `write` as `user` in a savepoint kept only when it succeeds; the exception it raised."""
		frappe.db.savepoint("matrix_write")
		frappe.set_user(user)
		try:
			write()
		except Exception as e:
			frappe.db.rollback(save_point="matrix_write")
			return e
		finally:
			frappe.set_user("Administrator")
			frappe.local.message_log = []
		return None


def put(doctype: str, name: str, data: dict) -> None:
	"""What PUT /api/resource/<doctype>/<name> does (frappe/api/v1.py update_doc)."""
	doc = frappe.get_doc(doctype, name)
	doc.update(data)
	doc.save()


def sample(doctype: str) -> dict:
	"""Values that make a document of `doctype` pass its mandatory and link checks."""
	values = {}
	for field in frappe.get_meta(doctype).fields:
		if field.reqd and field.fieldtype not in display_fieldtypes:
			values[field.fieldname] = placeholder(field)
	return values


def placeholder(field) -> object:
	if field.fieldtype in ("Int", "Float", "Currency", "Percent", "Check"):
		return 1
	if field.fieldtype == "Select":
		return (field.options or "").split("\n")[-1]
	if field.fieldtype in ("Date",):
		return "2001-01-01"
	if field.fieldtype in ("Datetime",):
		return "2001-01-01 00:00:00"
	if field.fieldtype == "Link":
		return "Administrator" if field.options == "User" else record_of(field.options)
	if field.fieldtype in ("JSON", "Code"):
		return "{}"
	return f"matrix-{field.fieldname}-{frappe.generate_hash(length=6)}"


def record_of(doctype: str) -> str:
	"""A stored `doctype` record (written directly: this is the test's own setup, not a client)."""
	existing = frappe.get_all(doctype, limit=1, pluck="name", order_by="creation desc")
	return existing[0] if existing else new_record(doctype)


def new_record(doctype: str) -> str:
	doc = frappe.new_doc(doctype)
	doc.update(sample(doctype))
	doc.flags.ignore_validate = True
	doc.insert(ignore_permissions=True, ignore_links=True, ignore_mandatory=True)
	return doc.name


def stored(doctype: str, name: str, fieldname: str, field) -> object:
	if field is not None and field.fieldtype == "Password":
		return get_decrypted_password(doctype, name, fieldname, raise_exception=False)
	return frappe.db.get_value(doctype, name, fieldname)


def different_value(field, current: object, fieldname: str) -> object:
	"""A value of the field's type other than `current`."""
	if field is None:  # owner
		return USER if current != USER else MANAGER
	if field.fieldtype in ("Int", "Float", "Currency", "Percent"):
		return (current or 0) + 7
	if field.fieldtype == "Check":
		return 0 if current else 1
	if field.fieldtype == "Select":
		options = [o for o in (field.options or "").split("\n") if o and o != current]
		return options[0] if options else "forged"
	if field.fieldtype == "Link":
		if field.options == "User":
			return USER if current != USER else MANAGER
		other = frappe.get_all(field.options, filters={"name": ("!=", current or "")}, limit=1, pluck="name")
		return other[0] if other else new_record(field.options)
	if field.fieldtype == "Date":
		return "2001-02-03"
	if field.fieldtype == "Datetime":
		return "2001-02-03 04:05:06"
	if field.fieldtype in ("JSON", "Code"):
		return '{"forged": 1}'
	return f"forged {fieldname}"
