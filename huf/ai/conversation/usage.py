"""Token and cost totals of a conversation, added atomically by every run and summary."""

import frappe
from frappe.utils import cint, flt


def record_usage(
	conversation_name: str, input_tokens: int = 0, output_tokens: int = 0, cost: float = 0.0
) -> None:
	"""Add tokens and cost to the conversation's running totals (atomic, safe with concurrent runs)."""
	input_tokens, output_tokens, cost = cint(input_tokens), cint(output_tokens), flt(cost)
	if not (input_tokens or output_tokens or cost):
		return
	frappe.db.sql(
		"""update `tabAgent Conversation`
		set total_input_tokens = coalesce(total_input_tokens, 0) + %s,
			total_output_tokens = coalesce(total_output_tokens, 0) + %s,
			total_tokens = coalesce(total_tokens, 0) + %s,
			total_cost = coalesce(total_cost, 0) + %s
		where name = %s""",
		(input_tokens, output_tokens, input_tokens + output_tokens, cost, conversation_name),
	)
