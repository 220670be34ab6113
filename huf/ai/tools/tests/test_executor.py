"""Argument repair at the executor seam: coercions gated by the schema and the tool type, identity on no-op."""

from huf.ai.tools.arguments import coerce_value, prepare_arguments, strip_forbidden, validate_arguments
from huf.ai.tools.spec import ToolSpec
from huf.tests.support.case import HufTestCase

SCHEMA = {
	"type": "object",
	"properties": {
		"flag": {"type": "boolean"},
		"count": {"type": "integer"},
		"ratio": {"type": "number"},
		"tags": {"type": "array", "items": {"type": "string"}},
		"payload": {"type": "object", "properties": {"n": {"type": "integer"}}, "additionalProperties": True},
		"label": {"type": "string"},
		"note": {"type": "string"},
	},
	"required": ["label"],
	"additionalProperties": False,
}


def spec(types: str = "Custom Function", parameters: dict = SCHEMA, **values) -> ToolSpec:
	return ToolSpec(name="t", types=types, parameters=parameters, **values)


def coerce(value, schema=SCHEMA):
	return coerce_value(value, schema, [], "")


class TestCoercion(HufTestCase):
	def test_recoverable_mistakes_are_repaired(self):
		out = coerce(
			{
				"flag": "true",
				"count": "5",
				"ratio": "2.5",
				"tags": '["a", "b"]',
				"payload": '{"n": "7"}',
				"label": 42,
				"note": None,
			}
		)
		self.assertEqual(
			out,
			{"flag": True, "count": 5, "ratio": 2.5, "tags": ["a", "b"], "payload": {"n": 7}, "label": "42"},
		)
		self.assertEqual(
			coerce({"flag": "no", "count": 3.0, "label": "x"}), {"flag": False, "count": 3, "label": "x"}
		)

	def test_canonical_input_is_returned_unchanged(self):
		args = {"flag": True, "count": 5, "tags": ["a"], "payload": {"n": 1, "extra": None}, "label": "x"}
		self.assertIs(coerce(args), args)
		self.assertIs(prepare_arguments(spec(), args).args, args)

	def test_what_cannot_be_repaired_is_left_for_validation(self):
		args = {"count": "five", "flag": "maybe", "label": "x"}
		self.assertIs(coerce(args), args)
		errors = validate_arguments(args, SCHEMA)
		self.assertIn('count must be integer, not "five"', errors)
		self.assertIn('flag must be boolean, not "maybe"', errors)
		self.assertEqual(validate_arguments({}, SCHEMA), ["label is required"])

	def test_required_nulls_are_kept_and_reported(self):
		self.assertEqual(coerce({"label": None}), {"label": None})
		self.assertEqual(validate_arguments({"label": None}, SCHEMA), ["label is required"])

	def test_unknown_and_forbidden_arguments_are_dropped(self):
		prepared = prepare_arguments(
			spec(), {"label": "x", "made_up": 1, "ignore_permissions": True, "__islocal": 1}
		)
		self.assertEqual(prepared.args, {"label": "x"})
		self.assertEqual(prepared.dropped, ["made_up"])
		args = {"label": "x"}
		self.assertIs(strip_forbidden(args), args)

	def test_shapes_are_repaired_only_for_their_tool_types(self):
		doc_schema = {
			"type": "object",
			"properties": {"document_id": {"type": "string"}},
			"required": ["document_id"],
			"additionalProperties": False,
		}
		self.assertEqual(
			prepare_arguments(spec("Get Document", doc_schema), {"name": "TD-1"}).args,
			{"document_id": "TD-1"},
		)
		custom = {
			"type": "object",
			"properties": {"document_id": {"type": "string"}},
			"additionalProperties": False,
		}
		self.assertEqual(prepare_arguments(spec("Custom Function", custom), {"name": "TD-1"}).args, {})
		ids = {
			"type": "object",
			"properties": {"document_ids": {"type": "array", "items": {"type": "string"}}},
			"required": ["document_ids"],
			"additionalProperties": False,
		}
		self.assertEqual(
			prepare_arguments(spec("Delete Multiple Documents", ids), {"document_ids": "A"}).args,
			{"document_ids": ["A"]},
		)
		self.assertEqual(
			prepare_arguments(spec("Delete Multiple Documents", ids), {"document_ids": '["A", "B"]'}).args,
			{"document_ids": ["A", "B"]},
		)

	def test_get_list_arguments(self):
		schema = {
			"type": "object",
			"properties": {
				"filters": {
					"type": "object",
					"properties": {"amount": {"type": "number"}},
					"additionalProperties": True,
				},
				"fields": {"type": "array", "items": {"type": "string"}},
				"order_by": {"type": "string"},
				"limit": {"type": "integer"},
			},
			"additionalProperties": False,
		}
		out = prepare_arguments(
			spec("Get List", schema),
			{
				"filters": [["amount", ">", "5"], ["status", "=", "Open"]],
				"fields": "name, amount",
				"page_length": "3",
			},
		).args
		self.assertEqual(
			out,
			{"filters": {"amount": [">", "5"], "status": "Open"}, "fields": ["name", "amount"], "limit": 3},
		)
		self.assertEqual(
			prepare_arguments(spec("Get List", schema), {"amount": "5"}).args, {"filters": {"amount": 5}}
		)


class TestSerializer(HufTestCase):
	def test_openai_function_format_each_name_once(self):
		from huf.ai.runtime.tools import Tool
		from huf.ai.tools.serializer import serialize_tools

		params = {"type": "object", "properties": {"q": {"type": "string"}}}
		out = serialize_tools(
			[
				Tool("search", "Search", params),
				{"tool_name": "search", "description": "duplicate"},
				{"type": "function", "function": {"name": "ping", "parameters": None}},
				Tool("", "nameless"),
			]
		)
		self.assertEqual(
			out,
			[
				{
					"type": "function",
					"function": {"name": "search", "description": "Search", "parameters": params},
				},
				{
					"type": "function",
					"function": {
						"name": "ping",
						"description": "",
						"parameters": {"type": "object", "properties": {}},
					},
				},
			],
		)
