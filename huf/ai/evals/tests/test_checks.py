"""The checks of eval cases on their own: what a case refuses when saved, and edge cases of judging."""

import json

import frappe

from huf.ai.evals.checks import CaseOutcome, evaluate
from huf.ai.evals.judge import parse_verdict
from huf.tests.support.case import HufTestCase, HufUnitTestCase
from huf.tests.support.factories import make_agent


def check(**values) -> frappe._dict:
	return frappe._dict({"value": None, "tool": None, "arguments_match": None, "threshold": 0, **values})


class TestJudging(HufUnitTestCase):
	def test_json_in_a_fence_and_schema_errors_name_the_place(self):
		schema = json.dumps({"type": "object", "properties": {"n": {"type": "integer"}}})
		ok = evaluate(check(kind="JSON Schema", value=schema), CaseOutcome(answer='```json\n{"n": 3}\n```'))
		self.assertTrue(ok.passed, ok.reason)
		bad = evaluate(check(kind="JSON Schema", value=schema), CaseOutcome(answer='{"n": "three"}'))
		self.assertEqual((bad.passed, bad.reason), (False, "n: 'three' is not of type 'integer'"))

	def test_arguments_match_as_json_is_a_subset_match(self):
		calls = [{"tool": "t", "arguments": {"a": 1, "b": {"c": 2, "d": 3}}}]
		outcome = CaseOutcome(tool_calls=calls)
		matching = evaluate(check(kind="Called Tool", tool="t", arguments_match='{"b": {"c": 2}}'), outcome)
		self.assertTrue(matching.passed)
		other = evaluate(check(kind="Called Tool", tool="t", arguments_match='{"b": {"c": 9}}'), outcome)
		self.assertEqual(other.reason, "t was called, never with matching arguments")
		by_regex = evaluate(check(kind="Called Tool", tool="t", arguments_match=r'"c": \d'), outcome)
		self.assertTrue(by_regex.passed)

	def test_the_judges_verdict_as_json_or_prose(self):
		self.assertEqual(parse_verdict('{"score": 8, "reasoning": "Good."}'), (8.0, "Good."))
		self.assertEqual(parse_verdict("Score: 6.5 because it is vague")[0], 6.5)
		self.assertEqual(parse_verdict("no idea")[0], None)
		unscored = evaluate(
			check(kind="Rubric", judge_agent="j", rubric="r"),
			CaseOutcome(),
			lambda c, o: (None, "no score given"),
		)
		self.assertEqual((unscored.passed, unscored.reason), (False, "no score"))


class TestCaseValidation(HufTestCase):
	def test_a_case_refuses_checks_that_could_never_be_judged(self):
		agent = make_agent("Eval Validation Agent").name
		for row, message in (
			({"kind": "Regex", "value": "(open"}, "not a regular expression"),
			({"kind": "JSON Schema", "value": '{"type": 5}'}, "the JSON Schema is not valid"),
			({"kind": "Called Tool"}, "a Called Tool check needs Tool"),
			({"kind": "Rubric", "rubric": "be nice"}, "a Rubric check needs a Judge Agent"),
			({"kind": "Called Tool", "tool": "t", "arguments_match": "[bad"}, "not a regular expression"),
		):
			with self.subTest(row=row), self.assertRaisesRegex(frappe.ValidationError, message):
				frappe.get_doc(
					{
						"doctype": "Agent Eval Case",
						"agent": agent,
						"title": "x",
						"prompt": "p",
						"checks": [row],
					}
				).insert()
		with self.assertRaisesRegex(frappe.ValidationError, "must be a JSON object"):
			frappe.get_doc(
				{
					"doctype": "Agent Eval Case",
					"agent": agent,
					"title": "x",
					"prompt": "p",
					"recorded_tool_results": "[1, 2]",
				}
			).insert()
