"""Safe expressions: what they compute, what they refuse (with a message naming it), and a fuzz of escapes."""

import ast
import copy
import json
import random

import frappe

from huf.huf import safe_expression
from huf.huf.safe_expression import ExpressionError, check, evaluate, render
from huf.tests.support.case import HufTestCase, HufUnitTestCase

DOC = {
	"name": "TODO-1",
	"status": "Open",
	"priority": "High",
	"qty": 3,
	"rate": 2.5,
	"note": None,
	"tags": ["a", "b"],
	"items": [{"item": "Pen", "qty": 2}, {"item": "Ink", "qty": 0}],
}

# Fragments an attacker reaches for; every expression using one must be refused before it runs.
ESCAPES = (
	"doc.save()",
	'doc.get_password("api_key")',
	'doc.db_set("status", "x")',
	'frappe.db.set_value("User", "Administrator", "enabled", 0)',
	'frappe.get_doc("AI Provider", "x").get_password("api_key")',
	"doc.__class__",
	"doc.__class__.__mro__[1].__subclasses__()",
	"().__class__.__bases__[0].__subclasses__()",
	'getattr(doc, "save")',
	'__import__("os").system("id")',
	"__builtins__",
	'"{0.__class__}".format(doc)',
	'"%s" % doc',
	'"%(x)999999999s" % {"x": 1}',
	'f"{doc.name:>999999999}"',
	"(lambda: doc)()",
	"[x for x in doc.items]",
	"{x: 1 for x in doc.tags}",
	"(x := doc)",
	"type(doc)",
	"vars()",
	"globals()",
	'open("/etc/passwd")',
	'eval("1")',
	"doc.items.append(1)",
	"doc.tags.pop()",
	"[*doc.tags]",
	"{**doc}",
	"1 << 100000",
	"doc.qty | 1",
	"~doc.qty",
	"yield doc",
)
HUGE = (
	"'a' * 10 ** 9",
	"[0] * 10 ** 9",
	"9 ** 9 ** 9",
	"2 ** 100000",
	"10.0 ** 400",
	"(-8) ** 0.5",
	"doc.tags * 100000",
	"'x' * 9999 + 'y' * 9999",
	"9" * 300,
	"-" * 500 + "1",
	"not " * 100 + "doc",
	"(" * 250 + "1" + ")" * 250,
	"doc" + ".name" * 40,
	"1 + " * 600 + "1",
	"x" * 3000,
)
ATOMS = (
	"doc",
	"doc.status",
	"doc.qty",
	"doc.rate",
	"doc.note",
	"doc.tags",
	"doc.items",
	"doc.items[0]",
	"doc.items[0].qty",
	"doc.items[-1]",
	"doc.tags[0:1]",
	"doc['priority']",
	"doc.missing",
	"doc.items[9]",
	"0",
	"1",
	"-1",
	"10 ** 9",
	"1e308",
	"0.5",
	"'Open'",
	"''",
	"'%s'",
	"None",
	"True",
	"False",
	"[]",
	"{}",
	"()",
	"[1, 'a']",
	"{'a': 1}",
	"{1, 2}",
)
BINARY = (
	"+",
	"-",
	"*",
	"/",
	"//",
	"%",
	"**",
	"==",
	"!=",
	"<",
	"<=",
	">",
	">=",
	"in",
	"not in",
	"is",
	"and",
	"or",
)
CHARS = "doc.()[]{}'\"_:,+-*/%<>=!|&^~ 019abcdefglnprstux\\\n#@$`;?"


def expression(rng: random.Random, depth: int = 0) -> str:
	"""A random expression built from ATOMS, ESCAPES and operators."""
	roll = rng.random()
	if depth > 3 or roll < 0.3:
		return rng.choice(ESCAPES) if rng.random() < 0.15 else rng.choice(ATOMS)
	if roll < 0.6:
		return f"{expression(rng, depth + 1)} {rng.choice(BINARY)} {expression(rng, depth + 1)}"
	if roll < 0.7:
		return f"({expression(rng, depth + 1)})"
	if roll < 0.78:
		return f"not {expression(rng, depth + 1)}"
	if roll < 0.86:
		return (
			f"{expression(rng, depth + 1)} if {expression(rng, depth + 1)} else {expression(rng, depth + 1)}"
		)
	if roll < 0.93:
		return f"{expression(rng, depth + 1)}[{expression(rng, depth + 1)}]"
	return f"{expression(rng, depth + 1)}.{rng.choice(('status', 'qty', '__class__', 'save', 'items'))}"


def must_be_refused(text: str) -> bool:
	"""Whether `text` parses to something the whitelist must refuse (a call, a dunder, a lambda...)."""
	try:
		tree = ast.parse(text.strip(), mode="eval")
	except (SyntaxError, ValueError, RecursionError, MemoryError):
		return True
	for node in ast.walk(tree):
		if isinstance(
			node,
			ast.Call
			| ast.Lambda
			| ast.ListComp
			| ast.SetComp
			| ast.DictComp
			| ast.GeneratorExp
			| ast.JoinedStr
			| ast.NamedExpr
			| ast.Starred
			| ast.Yield,
		):
			return True
		if isinstance(node, ast.Name) and node.id.startswith("__"):
			return True
		if isinstance(node, ast.Attribute) and node.attr.startswith("__"):
			return True
	return False


class TestSafeExpression(HufUnitTestCase):
	def test_reads_compares_and_computes(self):
		cases = {
			'doc.status == "Open"': True,
			'doc.status == "Open" and doc.priority in ("High", "Medium")': True,
			"doc.qty * doc.rate": 7.5,
			"doc.items[0].qty > 1": True,
			"doc.items[-1]['item']": "Ink",
			"doc.tags[0:1]": ["a"],
			"'b' in doc.tags": True,
			"doc.note is None": True,
			"doc.note or 'empty'": "empty",
			"'x' if doc.qty > 5 else 'y'": "y",
			"-doc.qty + 2 ** 3 - 7 // 2 % 5": 2,
			"not doc.items[1].qty": True,
			"1 < doc.qty <= 3": True,
			"{'a': doc.qty}": {"a": 3},
			"'ab' * 3": "ababab",
		}
		for text, expected in cases.items():
			with self.subTest(text):
				self.assertEqual(evaluate(text, {"doc": DOC}), expected)

	def test_refusals_name_what_is_not_allowed(self):
		cases = {
			"doc.save()": "calling doc.save(...) is not allowed",
			'doc.get_password("api_key")': "calling doc.get_password(...) is not allowed",
			'frappe.db.set_value("User", "x", "enabled", 0)': "calling frappe.db.set_value(...) is not allowed",
			"doc.__class__": "the field __class__ is not allowed",
			"__builtins__": "the name __builtins__ is not allowed",
			"lambda: 1": "lambdas are not allowed",
			"[x for x in doc.tags]": "comprehensions are not allowed",
			'f"{doc}"': "f-strings are not allowed",
			'"%s" % doc.status': "formatting text with % is not allowed",
			"(x := 1)": "assignments (:=) are not allowed",
			"doc.qty | 1": "the operator | is not allowed",
			"frappe.session.user": "unknown name frappe; it may use only doc",
			"'a' * 10 ** 9": "the result of * would be longer than 10000",
			"9 ** 9 ** 9": "the result of ** is too large",
			"not " * 40 + "doc": "nested more than 30 levels deep",
			"doc.qty + " * 1000 + "1": "longer than 2000 characters",
			"doc.status ==": "is not a valid expression",
			"doc.missing": "doc has no field missing",
			"doc.status > 3": "cannot compare text with number",
			"doc.status.lower": "doc.status is a text, which has no field lower",
			"doc.qty / 0": "division by zero",
		}
		for text, message in cases.items():
			with self.subTest(text), self.assertRaises(ExpressionError) as caught:
				evaluate(text, {"doc": DOC}, "Condition")
			self.assertIn(message, str(caught.exception))
			self.assertTrue(str(caught.exception).startswith("Condition"), str(caught.exception))
		self.assertTrue(issubclass(ExpressionError, frappe.ValidationError))

	def test_fuzz_escapes_are_refused_and_nothing_else_escapes(self):
		rng = random.Random(20261203)
		generated = [expression(rng) for _ in range(2500)]
		garbage = ["".join(rng.choice(CHARS) for _ in range(rng.randint(1, 40))) for _ in range(1500)]
		cut = [text[: rng.randint(0, len(text))] for text in generated[:500]]
		values = {"doc": copy.deepcopy(DOC)}
		refused = evaluated = 0
		for text in (*ESCAPES, *HUGE, *generated, *garbage, *cut):
			try:
				result = evaluate(text, values, "Condition")
			except ExpressionError as e:
				message = str(e)
				self.assertTrue(message.startswith("Condition") and len(message) < 600, (text, message))
				self.assertNotIn("Traceback", message)
				refused += 1
				continue
			except Exception as e:  # any other exception type is a defect of the evaluator
				self.fail(f"{text!r} raised {type(e).__name__}: {e}")
			evaluated += 1
			self.assertFalse(must_be_refused(text), f"{text!r} ran and gave {result!r}")
			self.assertIsInstance(result, str | int | float | bool | type(None) | list | tuple | dict | set)
			if isinstance(result, str | list | tuple | dict | set):
				self.assertLessEqual(len(result), safe_expression.MAX_SIZE, text)
		for text in (*ESCAPES, *HUGE):
			with self.subTest(text), self.assertRaises(ExpressionError):
				evaluate(text, values, "Condition")
		self.assertEqual(values, {"doc": DOC})  # nothing changed the values it was given
		self.assertGreater(evaluated, 300)  # the fuzz reaches past the parser and the whitelist
		self.assertGreater(refused, 1000)

	def test_values_are_plain_snapshots(self):
		class Probe:
			def save(self):
				raise AssertionError("called")

		with self.assertRaisesRegex(ExpressionError, "type Probe cannot be used"):
			evaluate("doc", {"doc": {"probe": Probe()}})
		given = {"doc": {"when": frappe.utils.get_datetime("2026-01-02 03:04:05"), "rows": ({"a": 1},)}}
		self.assertEqual(evaluate("doc.when", given), "2026-01-02 03:04:05")
		self.assertEqual(evaluate("doc.rows", given), [{"a": 1}])
		self.assertEqual(evaluate("doc.rows[0].a", given), 1)

	def test_templates_fill_placeholders_and_refuse_code(self):
		values = {"doc": DOC, "event": "on_update"}
		self.assertEqual(
			render("{{ doc.name }} ({{ event }}): {{ doc.tags }}{{ doc.note }}", values),
			'TODO-1 (on_update): ["a", "b"]',
		)
		for template, message in {
			"{{ doc.save() }}": "calling doc.save(...) is not allowed",
			"{% if doc %}x{% endif %}": "{% tags are not supported",
			"{# note #}": "{# tags are not supported",
			"{{ payload }}": "unknown name payload",
		}.items():
			with self.subTest(template), self.assertRaises(ExpressionError) as caught:
				render(template, values, "Prompt template")
			self.assertIn(message, str(caught.exception))

	def test_flow_expressions_are_checked_without_a_fixed_set_of_names(self):
		self.assertIsNotNone(check("context.total > 10 and input.ok"))
		with self.assertRaisesRegex(ExpressionError, "calling context.run"):
			check("context.run()")


class TestDocumentSnapshot(HufTestCase):
	def test_a_document_becomes_plain_values_without_passwords(self):
		provider = frappe.get_doc(
			{"doctype": "AI Provider", "provider_name": "Snapshot Provider", "api_key": "sk-snapshot-secret"}
		).insert(ignore_permissions=True)
		values = safe_expression.document_snapshot(frappe.get_doc("AI Provider", provider.name))
		self.assertNotIn("api_key", values)
		self.assertNotIn("sk-snapshot-secret", json.dumps(values, default=str))
		self.assertEqual(
			(values["doctype"], values["name"], values["docstatus"]), ("AI Provider", provider.name, 0)
		)
		self.assertEqual(values, safe_expression.snapshot(values))  # already plain: a copy changes nothing

		todo = frappe.get_doc(
			{"doctype": "ToDo", "description": "Snapshot me", "date": "2026-01-02"}
		).insert()
		snap = safe_expression.document_snapshot(todo)
		self.assertEqual(evaluate("doc.description", {"doc": snap}), "Snapshot me")
		self.assertEqual(evaluate("doc.date", {"doc": snap}), "2026-01-02")
		self.assertIn("priority", snap)  # every field, empty or not

	def test_child_tables_are_lists_of_plain_rows(self):
		from huf.tests.support.factories import make_agent

		agent = make_agent("Snapshot Agent", agent_role=[{"role": "Huf User"}])
		snap = safe_expression.document_snapshot(agent)
		self.assertEqual([row["role"] for row in snap["agent_role"]], ["Huf User"])
		self.assertTrue(evaluate('doc.agent_role[0].role == "Huf User"', {"doc": snap}))
		self.assertEqual(snap["agent_tool"], [])


class TestFlowDefinitionExpressions(HufTestCase):
	def flow(self, condition: str, node: dict | None = None):
		definition = {
			"id": "safe-flow",
			"entry_node_id": "start",
			"nodes": [
				{"id": "start", "type": "trigger.webhook"},
				node or {"id": "check", "type": "condition"},
				{"id": "done", "type": "end"},
			],
			"edges": [
				{"id": "e1", "source": "start", "target": "check"},
				{
					"id": "e2",
					"source": "check",
					"target": "done",
					"type": "expression",
					"condition": condition,
				},
			],
		}
		return frappe.get_doc(
			{
				"doctype": "Flow Definition",
				"flow_id": "safe-flow",
				"flow_name": "Safe",
				"definition_json": json.dumps(definition),
			}
		)

	def test_edge_and_node_expressions_must_be_safe(self):
		self.assertEqual(self.flow("context.total > 10").insert().flow_id, "safe-flow")
		for condition, message in {
			'context.doc.db_set("status", "x")': "The condition of edge e2 is not allowed: calling context.doc.db_set",
			"context.__class__": "the field __class__ is not allowed",
			"context.total >": "The condition of edge e2 is not a valid expression",
		}.items():
			with self.subTest(condition), self.assertRaises(frappe.ValidationError) as caught:
				self.flow(condition).insert()
			self.assertIn(message, str(caught.exception))
		node = {"id": "check", "type": "condition", "data": {"expression": 'frappe.db.sql("drop table x")'}}
		with self.assertRaisesRegex(
			frappe.ValidationError, "The condition of node check is not allowed: calling"
		):
			self.flow("context.ok", node).insert()


class TestSizeLimits(HufUnitTestCase):
	"""Values an expression builds and text a template renders are bounded before they are built."""

	def test_nested_and_repeated_building_is_refused_before_it_is_built(self):
		for text in (
			"[[0] * 10000] * 10000",
			"[[[0] * 10000] * 10000] * 10000",
			"[['a' * 5000]] * 3",
			"[doc.tags] * 6000",
			"(['x' * 9999],) + (['y' * 9999],)",
			"[[0] * 5000] + [[0] * 5000] + [[0] * 5000]",
			"[{'k': 'v' * 5000}] * 3",
		):
			with self.subTest(text), self.assertRaises(ExpressionError) as caught:
				evaluate(text, {"doc": DOC}, "Condition")
			self.assertIn("longer than 10000", str(caught.exception))
		self.assertEqual(len(evaluate("[0] * 10000", {})), 10000)
		self.assertEqual(evaluate("'' * 10 ** 12 + 'ok'", {}), "ok")
		self.assertEqual(evaluate("[[0] * 49] * 200", {})[199], [0] * 49)
		with self.assertRaisesRegex(ExpressionError, "longer than 10000"):
			evaluate("[[0] * 50] * 200", {})  # each inner list counts one more than its items

	def test_literal_sizes_are_refused_without_evaluating(self):
		for text, message in {
			"[0] * 10 ** 12": "the result of * would be longer than 10000",
			'"a" * 10 ** 9': "the result of * would be longer than 10000",
			"10 ** 10 ** 10": "the result of ** is too large",
			"[[0] * 10000] * 10000": "the result of * would be longer than 10000",
			"[context.x] * 10 ** 12": "the result of * would be longer than 10000",
			"context.ok and [0] * 10 ** 12": "the result of * would be longer than 10000",
			"('a' * 9999 + 'b') * 2": "the result of * would be longer than 10000",
		}.items():
			with self.subTest(text), self.assertRaises(ExpressionError) as caught:
				check(text, label="Expression")
			self.assertTrue(str(caught.exception).startswith("Expression is not allowed:"), caught.exception)
			self.assertIn(message, str(caught.exception))
			answer = frappe.get_attr("huf.api.flows.check_flow_expression")(text)
			self.assertFalse(answer["ok"])
			self.assertIn(message, answer["error"])
		for text in ("context.items * 10 ** 12", "[0] * 10000", "1 / 0 if context.x else 1", "2 ** 100"):
			with self.subTest(text):
				self.assertIsNotNone(check(text))

	def test_templates_stop_rendering_past_the_output_limit(self):
		limit = safe_expression.MAX_RENDER_LENGTH
		values = {"doc": {"text": "x" * (limit + 1), "rows": [{"a": "y" * 5000}] * 40}}
		for template in (
			"{{ 'a' * 9999 }}" * 1250,
			"{{ doc.text }}",
			"{{ doc.rows }}{{ doc.rows }}",
			"head {{ doc }}",
		):
			with self.subTest(template[:40]), self.assertRaises(ExpressionError) as caught:
				render(template, values, "Prompt template")
			self.assertEqual(
				str(caught.exception),
				f"Prompt template: the rendered text would be longer than {limit} characters.",
			)
		self.assertEqual(len(render("{{ doc.text[1:] }}", values)), limit)
		self.assertEqual(render("{{ doc.rows[0] }}", values), json.dumps({"a": "y" * 5000}))
		flow_render = frappe.get_attr("huf.ai.flows.context.render")
		with self.assertRaisesRegex(ExpressionError, "The prompt: the rendered text would be longer"):
			flow_render("{{ 'a' * 9999 }}" * 11, {"vars": {}}, "The prompt")
