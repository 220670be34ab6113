"""frappe.safe_eval / safe_exec: useful expressions work, escapes out of the sandbox are refused."""

import frappe
from frappe.tests import IntegrationTestCase
from frappe.utils.safe_exec import ServerScriptNotEnabled, safe_exec

ESCAPES = [
	"().__class__",
	"().__class__.__bases__[0].__subclasses__()",
	"__import__('os')",
	"__builtins__",
	"open('/etc/passwd')",
	"open('/etc/passwd').read()",
	"eval('1+1')",
	"exec('x=1')",
	"compile('1', 'f', 'eval')",
	"getattr(frappe, 'db')",
	"setattr(frappe, 'x', 1)",
	"globals()",
	"vars(frappe)",
	"type(1)",
	"(lambda: 0).__globals__",
	"frappe.utils.cint.__globals__['frappe']",
	"(x for x in [1]).gi_frame.f_globals",
	"'{0.__class__}'.format(1)",
	"'{x}'.format_map({'x': 1})",
	"str.format('{0}', 1)",
	"f'{(1).__class__}'",
	"frappe._dict.__init__",
	"[].__class__.mro()",
	"int.mro()",
]

SCRIPT_ESCAPES = [
	"import os",
	"from os import path",
	"class A:\n\tpass",
	"def _hidden():\n\tpass",
	"try:\n\t1 / 0\nexcept Exception as e:\n\tt = e.__traceback__",
	"frappe.utils.cint.attribute = 1",
	"frappe.ValidationError.http_status_code = 200",
	"match 1:\n\tcase str(format=f):\n\t\tpass",
	"async def f():\n\tpass",
]


class TestSafeEval(IntegrationTestCase):
	def test_expressions(self):
		self.assertEqual(frappe.safe_eval("1 + 2 * 3"), 7)
		self.assertEqual(frappe.safe_eval("sum([1, 2, 3]) + len('ab') + max(1, 4) + abs(-1)"), 13)
		self.assertEqual(frappe.safe_eval("sorted(set([3, 1, 3]))"), [1, 3])
		self.assertEqual(frappe.safe_eval("round(2.567, 2)"), 2.57)
		self.assertEqual(frappe.safe_eval("[i * 2 for i, x in enumerate(range(3))]"), [0, 2, 4])
		self.assertTrue(frappe.safe_eval("isinstance(x, int) and x > 2", None, {"x": 3}))
		self.assertEqual(frappe.safe_eval("dict(zip(['a'], [1]))"), {"a": 1})

	def test_globals_and_documents(self):
		doc = frappe._dict(status="Open", qty=3)
		self.assertTrue(frappe.safe_eval("doc.status == 'Open' and doc.qty > 2", {"doc": doc}))
		todo = frappe.get_doc({"doctype": "ToDo", "description": "eval me"})
		self.assertEqual(frappe.safe_eval("doc.description.upper()", None, {"doc": todo}), "EVAL ME")

	def test_frappe_namespace(self):
		self.assertEqual(frappe.safe_eval("frappe.utils.cint('42') + frappe.utils.flt('1.5')"), 43.5)
		self.assertEqual(frappe.safe_eval("frappe.session.user"), "Administrator")
		self.assertEqual(frappe.safe_eval("frappe._dict(a=1).a + _dict(b=2).b"), 3)
		self.assertEqual(frappe.safe_eval("frappe.utils.add_days('2024-01-31', 1)"), "2024-02-01")
		todo = frappe.get_doc({"doctype": "ToDo", "description": "find me in safe_eval"}).insert()
		self.assertTrue(frappe.safe_eval(f"frappe.db.exists('ToDo', '{todo.name}')"))
		self.assertEqual(
			frappe.safe_eval(f"frappe.db.get_value('ToDo', '{todo.name}', 'description')"),
			"find me in safe_eval",
		)
		self.assertEqual(
			frappe.safe_eval("frappe.db.count('ToDo', {'description': 'find me in safe_eval'})"), 1
		)

	def test_escapes_are_refused(self):
		for code in ESCAPES:
			with self.subTest(code=code), self.assertRaises(frappe.ValidationError):
				frappe.safe_eval(code)

	def test_refusal_is_also_a_syntax_error(self):
		# Frappe's RestrictedPython raises SyntaxError; callers catching it keep working
		with self.assertRaises(SyntaxError):
			frappe.safe_eval("().__class__")

	def test_refusal_message_is_clear(self):
		with self.assertRaises(frappe.ValidationError) as ctx:
			frappe.safe_eval("__import__('os').system('id')")
		self.assertIn("__import__", str(ctx.exception))
		with self.assertRaises(frappe.ValidationError) as ctx:
			frappe.safe_eval("open('/etc/passwd')")
		self.assertIn("open", str(ctx.exception))

	def test_no_sql_through_db_helpers(self):
		for code in (
			"frappe.db.get_value('User', 'Administrator', '(select password from __Auth)')",
			"frappe.db.get_value('User', {'name) or (1=1': 1}, 'name')",
			"frappe.get_all('User', fields=['name', 'sum(1)'])",
			"frappe.get_all('User', order_by='(select 1)')",
			"frappe.db.get_value('__Auth', 'Administrator', 'password')",
		):
			with self.subTest(code=code), self.assertRaises(frappe.ValidationError):
				frappe.safe_eval(code)

	def test_no_write_helpers(self):
		for code in (
			"frappe.db.set_value('ToDo', 'x', 'status', 'Closed')",
			"frappe.db.sql('delete from tabToDo')",
			"frappe.get_doc('User', 'Administrator')",
		):
			with self.subTest(code=code), self.assertRaises(AttributeError):
				frappe.safe_eval(code)


class TestSafeExec(IntegrationTestCase):
	def setUp(self):
		self.conf = frappe.local.conf
		self.old = self.conf.get("server_script_enabled")
		self.conf["server_script_enabled"] = 1

	def tearDown(self):
		if self.old is None:
			self.conf.pop("server_script_enabled", None)
		else:
			self.conf["server_script_enabled"] = self.old

	def test_script_runs(self):
		script = "\n".join(
			[
				"total = 0",
				"for i in range(5):",
				"\ttotal += i",
				"def double(x):",
				"\treturn x * 2",
				"result = double(total)",
				"names = [r.name for r in frappe.get_all('Role', fields=['name'], limit=2)]",
				"doc.status = 'Closed'",
			]
		)
		doc = frappe._dict(status="Open")
		exec_globals, _locals = safe_exec(script, {"doc": doc})
		self.assertEqual(exec_globals["result"], 20)
		self.assertEqual(len(exec_globals["names"]), 2)
		self.assertEqual(doc.status, "Closed")

	def test_script_escapes_are_refused(self):
		for script in SCRIPT_ESCAPES + ESCAPES:
			with self.subTest(script=script), self.assertRaises(frappe.ValidationError):
				safe_exec(script)

	def test_scripts_cannot_change_shared_state(self):
		safe_exec("frappe.utils['cint'] = None\nfrappe.db['get_value'] = None")
		self.assertEqual(frappe.safe_eval("frappe.utils.cint('5')"), 5)
		self.assertEqual(frappe.utils.cint("5"), 5)

	def test_disabled_by_default(self):
		self.conf.pop("server_script_enabled", None)
		with self.assertRaises(ServerScriptNotEnabled):
			safe_exec("x = 1")
