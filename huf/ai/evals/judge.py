"""Rubric checks: the check's judge agent scores a case's answer against the rubric, with its reasoning."""

import json
import re
from typing import Any

from frappe import _
from frappe.utils import flt

from huf.ai.evals.checks import CaseOutcome, strip_fence
from huf.ai.runtime import front_door
from huf.ai.runtime.run_request import RunRequest
from huf.ai.runtime.sandbox import SANDBOX_KEY

JUDGE_PROMPT = """You grade an AI agent's answer against a rubric.

Rubric:
{rubric}

The question the agent was asked:
{prompt}

The agent's answer:
{answer}

Reply with JSON only: {{"score": <a number from 0 to 10>, "reasoning": "<why, in a few sentences>"}}"""


def judge_with(user: str, eval_run: str, prompt: str):
	"""A judge for `checks.evaluate`: runs the check's judge agent as `user` (sandboxed, like the case)."""

	def judge(check: Any, outcome: CaseOutcome) -> tuple[float | None, str]:
		request = RunRequest(
			check.judge_agent,
			JUDGE_PROMPT.format(rubric=check.rubric, prompt=prompt, answer=outcome.answer or ""),
			user=user,
			new_conversation=True,
			channel="eval",
			external_id=f"eval-judge-{eval_run}",
			context={SANDBOX_KEY: {"eval_run": eval_run}},
		)
		result = front_door.run_now(request)
		if result.answer is None:
			reason = (result.error or {}).get("content") or _("The judge agent gave no answer.")
			return None, reason
		return parse_verdict(result.answer)

	return judge


def parse_verdict(text: str) -> tuple[float | None, str]:
	"""(score, reasoning) from the judge's reply: JSON as asked, else the first number after "score"."""
	try:
		value = json.loads(strip_fence(text))
	except ValueError:
		value = None
	if isinstance(value, dict) and value.get("score") is not None:
		return flt(value.get("score")), str(value.get("reasoning") or "")
	match = re.search(r"score\D{0,10}(\d+(?:\.\d+)?)", text or "", re.I)
	return (flt(match.group(1)) if match else None), text or ""
