"""The code, date, file and email nodes: what each computes or does as the run's acting user, the
permissions and limits they keep, and the problems of their settings found when a flow is saved."""

import json
from unittest.mock import patch

import frappe
from frappe.utils import nowdate

from huf.ai.flows.nodes import config_problems, schemas
from huf.ai.flows.nodes.base import NodeCall
from huf.tests.support.case import HufTestCase
from huf.tests.support.config import set_site_config
from huf.tests.support.factories import make_user
from huf.tests.support.flows import edge, flow_context, make_flow, node, run_flow_now
from huf.tests.support.runs import delete_users

MANAGER = "flow-utility-manager@example.com"  # Huf Manager: flows.manage
HUF_USER = "flow-utility-user@example.com"  # Huf User
OTHER = "flow-utility-other@example.com"  # another Huf Manager


def chain(test, *nodes: dict, **fields):
	"""An Active flow running `nodes` one after the other, then an end node; a failed node fails the run."""
	nodes = [*nodes, node("end", "end")]
	edges = [edge(a["id"], b["id"], "on_success") for a, b in zip(nodes, nodes[1:], strict=False)]
	return make_flow(test, nodes, edges, **fields)


def outputs(run) -> dict:
	return {key: value.get("output") for key, value in flow_context(run)["nodes"].items()}


class UtilityNodeCase(HufTestCase):
	@classmethod
	def setUpClass(cls):
		super().setUpClass()
		make_user(MANAGER, "Huf Manager")
		make_user(HUF_USER, "Huf User")
		make_user(OTHER, "Huf Manager")
		frappe.db.commit()
		cls.addClassCleanup(delete_users, [MANAGER, HUF_USER, OTHER])

	def setUp(self):
		frappe.db.rollback()


class TestDateNode(UtilityNodeCase):
	def test_format_move_and_difference_in_the_site_time_zone(self):
		flow = chain(
			self,
			node("fmt", "date", operation="format", value="{{ payload.at }}", format="dd-MM-yyyy HH:mm"),
			node("month", "date", operation="add", value="2025-01-31", amount="1", unit="months"),
			node("back", "date", operation="subtract", value="{{ payload.at }}", amount=15, unit="hours"),
			node("days", "date", operation="difference", value="2025-01-01", end="2025-03-01", unit="days"),
			node(
				"hours",
				"date",
				operation="difference",
				value="{{ payload.at }}",
				end="2025-02-01 02:30:00",
				unit="hours",
			),
			node(
				"months", "date", operation="difference", value="2025-01-31", end="2025-03-30", unit="months"
			),
			node("today", "date", operation="today"),
			node("now", "date"),
		)
		run = run_flow_now(flow, {"at": "2025-01-31 14:30:00"})
		self.assertEqual(run.status, "Success", run.last_error)
		out = outputs(run)
		self.assertEqual(out["fmt"], "31-01-2025 14:30")
		self.assertEqual(out["month"], "2025-02-28")  # a date stays a date; the month's last day
		self.assertEqual(out["back"], "2025-01-30 23:30:00")
		self.assertEqual((out["days"], out["hours"], out["months"]), (59, 12, 1))
		self.assertEqual(out["today"], nowdate())
		self.assertRegex(out["now"], r"^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$")

	def test_a_value_that_is_not_a_date_fails_the_node_with_a_clear_message(self):
		flow = chain(
			self, node("d", "date", operation="add", value="{{ payload.at }}", amount=1, unit="days")
		)
		run = run_flow_now(flow, {"at": "next tuesday"})
		self.assertEqual(run.status, "Failed")
		self.assertIn("Date node d: value is not a date or time", run.last_error)


class TestCodeNode(UtilityNodeCase):
	def test_a_script_of_safe_expressions_sets_names_and_gives_its_last_value(self):
		flow = chain(
			self,
			node("named", "code", code="total = payload.qty * payload.price\nbig = total > 100"),
			node(
				"last",
				"code",
				language="expression",
				code="# the total, read back\nlines = [\n  nodes.named.output.total,\n  1,\n]\nlines[0] + lines[1]",
			),
		)
		run = run_flow_now(flow, {"qty": 3, "price": 50})
		self.assertEqual(run.status, "Success", run.last_error)
		self.assertEqual(outputs(run)["named"], {"total": 150, "big": True})
		self.assertEqual(outputs(run)["last"], 151)
		self.assertEqual(flow_context(run)["last"], 151)

	def test_anything_but_assignments_and_expressions_is_refused_when_saved(self):
		for code, message in (
			("import os", "only name = expression"),
			("for x in payload: pass", "only name = expression"),
			("x = payload.__class__", "__"),
			("x = len(payload)", "call"),
			("payload = 1", "name of the flow context"),
			("x = (", "line 1"),
		):
			with self.subTest(code=code):
				problems = config_problems({"nodes": [node("c", "code", code=code)]})
				self.assertEqual([p["field"] for p in problems], ["code"], problems)
				self.assertIn(message, problems[0]["message"])
				with self.assertRaisesRegex(frappe.ValidationError, "not valid"):
					chain(self, node("c", "code", code=code))

	def call(self, code: str, user: str = "Administrator") -> NodeCall:
		context = {"payload": {"qty": 4}, "vars": {}, "nodes": {}, "last": None}
		return NodeCall(
			run=None,
			node={"id": "py"},
			config={"language": "python", "code": code},
			context=context,
			graph=None,
			user=user,
		)

	def test_python_runs_through_frappes_safe_exec_only_where_server_scripts_are_enabled(self):
		from frappe.utils import safe_exec

		from huf.ai.flows.nodes.script import code_node

		with patch.object(safe_exec, "is_safe_exec_enabled", return_value=False):
			with self.assertRaisesRegex(frappe.ValidationError, "server scripts, which are disabled"):
				code_node(self.call("result = 1"))
		with patch.object(safe_exec, "is_safe_exec_enabled", return_value=True):
			result = code_node(self.call("result = {'double': context['payload']['qty'] * 2}"))
			self.assertEqual(result.output, {"double": 8})
			with self.assertRaises(Exception):  # RestrictedPython refuses imports
				code_node(self.call("import os\nresult = os.getcwd()"))
			with self.assertRaisesRegex(frappe.ValidationError, "acts as a System Manager"):
				code_node(self.call("result = 1", user=MANAGER))

	def test_only_a_system_manager_may_save_python_code(self):
		definition = {"nodes": [node("py", "code", language="python", code="result = 1")]}
		self.assertEqual(config_problems(definition), [])  # as Administrator
		with self.set_user(MANAGER):
			[problem] = config_problems(definition)
		self.assertIn("only a System Manager may save a flow with Python code", problem["message"])


class TestFileNode(UtilityNodeCase):
	def tearDown(self):
		frappe.db.rollback()
		for name in frappe.get_all("File", filters={"file_name": ("like", "flow-node-%")}, pluck="name"):
			frappe.delete_doc("File", name, force=True, ignore_permissions=True)
		frappe.db.commit()

	def test_write_read_and_delete_a_private_text_file_as_the_acting_user(self):
		flow = chain(
			self,
			node(
				"save",
				"file",
				operation="write",
				file_name="flow-node-{{ payload.n }}.txt",
				content="Hello {{ payload.who }}",
			),
			node("load", "file", operation="read", file="{{ nodes.save.output.file_url }}"),
			node("drop", "file", operation="delete", file="{{ nodes.save.output.name }}"),
		)
		run = run_flow_now(flow, {"n": 1, "who": "Ada"}, user=MANAGER)
		self.assertEqual(run.status, "Success", run.last_error)
		saved, loaded = outputs(run)["save"], outputs(run)["load"]
		self.assertEqual((saved["file_name"], saved["is_private"]), ("flow-node-1.txt", 1))
		self.assertTrue(saved["file_url"].startswith("/private/files/"))
		self.assertEqual(loaded["content"], "Hello Ada")
		self.assertEqual(outputs(run)["drop"], {"name": saved["name"], "deleted": True})
		self.assertFalse(frappe.db.exists("File", saved["name"]))

	def test_another_users_private_file_is_refused_and_sizes_are_limited(self):
		own = frappe.get_doc(
			{"doctype": "File", "file_name": "flow-node-secret.txt", "content": "secret", "is_private": 1}
		)
		with self.set_user(OTHER):
			own.insert()
		frappe.db.commit()
		flow = chain(self, node("load", "file", operation="read", file=own.name))
		run = run_flow_now(flow, user=MANAGER)
		self.assertEqual(run.status, "Failed")
		self.assertNotIn("secret", json.dumps(flow_context(run)))

		set_site_config("huf_flow_file_max_bytes", 5)
		self.addCleanup(set_site_config, "huf_flow_file_max_bytes", None)
		flow = chain(
			self, node("save", "file", operation="write", file_name="flow-node-big.txt", content="too long")
		)
		run = run_flow_now(flow, user=MANAGER)
		self.assertEqual(run.status, "Failed")
		self.assertIn("the content is 8 bytes; at most 5 are allowed", run.last_error)


class TestEmailNode(UtilityNodeCase):
	def setUp(self):
		super().setUp()
		# an outgoing account from the site config, muted: Frappe queues and sends nothing
		for key, value in (
			("mail_server", "127.0.0.1"),
			("auto_email_id", "flows@flow-mail.example.com"),
			("mute_emails", 1),
		):
			set_site_config(key, value)
			self.addCleanup(set_site_config, key, None)
		self.addCleanup(self.delete_queue)

	def delete_queue(self):
		frappe.db.rollback()
		names = frappe.get_all(
			"Email Queue Recipient",
			filters={"recipient": ("like", "%@flow-mail.example.com")},
			pluck="parent",
		)
		for name in set(names):
			frappe.db.delete("Email Queue Recipient", {"parent": name})
			frappe.db.delete("Email Queue", {"name": name})
		frappe.db.commit()

	def queued_to(self, address: str) -> list:
		names = frappe.get_all("Email Queue Recipient", filters={"recipient": address}, pluck="parent")
		return frappe.get_all(
			"Email Queue",
			filters={"name": ("in", names or [""])},
			fields=["name", "status", "message", "reference_doctype", "reference_name"],
		)

	def test_an_email_is_queued_with_its_recipients_and_subject_from_the_context(self):
		todo = frappe.get_doc({"doctype": "ToDo", "description": "flow email todo"}).insert()
		frappe.db.commit()
		self.addCleanup(frappe.db.delete, "ToDo", {"name": todo.name})
		flow = chain(
			self,
			node(
				"mail",
				"email",
				recipients="{{ payload.to }}, boss@flow-mail.example.com",
				subject="Order {{ payload.order }} shipped",
				message="<p>Hello {{ payload.name }}</p>",
				reference_doctype="ToDo",
				reference_name="{{ payload.todo }}",
			),
		)
		run = run_flow_now(
			flow, {"to": "ada@flow-mail.example.com", "order": "SO-7", "name": "Ada", "todo": todo.name}
		)
		self.assertEqual(run.status, "Success", run.last_error)
		output = outputs(run)["mail"]
		self.assertEqual(output["recipients"], ["ada@flow-mail.example.com", "boss@flow-mail.example.com"])
		[queued] = self.queued_to("ada@flow-mail.example.com")
		self.assertEqual(queued.name, output["email_queue"])
		self.assertEqual(
			(queued.status, queued.reference_doctype, queued.reference_name), ("Not Sent", "ToDo", todo.name)
		)
		self.assertIn("Order SO-7 shipped", queued.message)
		self.assertEqual(len(self.queued_to("boss@flow-mail.example.com")), 1)

	def test_a_site_without_an_outgoing_account_is_told_so(self):
		# the node itself, in this process: a test worker may hold the site config of a moment ago
		from huf.ai.flows.nodes.mail import EmailNodeError, email_node

		if frappe.db.exists("Email Account", {"enable_outgoing": 1, "default_outgoing": 1}):
			self.skipTest("this site has a default outgoing Email Account")
		set_site_config("mail_server", None)
		call = NodeCall(
			run=None,
			node={"id": "mail"},
			config={"recipients": "ada@flow-mail.example.com", "subject": "Hi", "message": "Hi"},
			context={"payload": {}, "vars": {}, "nodes": {}, "last": None},
			graph=None,
			user=MANAGER,
		)
		with self.assertRaisesRegex(EmailNodeError, "the site has no outgoing Email Account"):
			email_node(call)
		self.assertEqual(self.queued_to("ada@flow-mail.example.com"), [])

	def test_who_may_send_and_bad_addresses(self):
		flow = chain(
			self, node("mail", "email", recipients="ada@flow-mail.example.com", subject="Hi", message="Hi")
		)
		run = run_flow_now(flow, user=HUF_USER)  # without a document only flow managers send
		self.assertEqual(run.status, "Failed")
		self.assertIn("may send email only about a document", run.last_error)
		self.assertEqual(self.queued_to("ada@flow-mail.example.com"), [])
		self.assertEqual(run_flow_now(flow, user=MANAGER).status, "Success")

		flow = chain(self, node("mail", "email", recipients="{{ payload.to }}", subject="Hi", message="Hi"))
		run = run_flow_now(flow, {"to": "not an address"})
		self.assertEqual(run.status, "Failed")
		self.assertIn("not an address is not an email address", run.last_error)


class TestNodeSettingsAtSave(UtilityNodeCase):
	def test_each_new_node_says_what_is_wrong_with_its_settings(self):
		definition = {
			"nodes": [
				node("d", "date", operation="add", value="2025-01-01", unit="fortnights"),
				node("f", "file", operation="write"),
				node("m", "email", recipients="ada@example.com, nobody", message="Hi"),
				node(
					"a",
					"trigger.app-event",
					app="no_such_app",
					event="order paid!",
					condition="payload.x ===",
				),
				node("c", "code", language="ruby", code="x = 1"),
			]
		}
		found = {(p["node_id"], p.get("field")) for p in config_problems(definition)}
		self.assertEqual(
			found,
			{
				("d", "unit"),
				("d", "amount"),
				("f", "file_name"),
				("m", "recipients"),
				("m", "subject"),
				("a", "app"),
				("a", "event"),
				("a", "condition"),
				("c", "language"),
			},
		)
		with self.assertRaisesRegex(frappe.ValidationError, "Node f: File name is required"):
			chain(self, node("f", "file", operation="write"))

	def test_the_canvas_forms_come_from_the_same_schemas(self):
		served = schemas()
		for node_type in ("trigger.app-event", "code", "email", "file", "date"):
			with self.subTest(node_type=node_type):
				self.assertTrue(served[node_type]["has_backend"])
				self.assertTrue(served[node_type]["config_schema"])
		schedule = {s["name"] for s in served["trigger.schedule"]["config_schema"]}
		self.assertLessEqual({"cron", "interval_minutes", "timezone", "schedule_name"}, schedule)
