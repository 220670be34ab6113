"""The safe expression evaluation flows use (the spec's module), over a flow run's context.

Conditions, expression edges and `{{ }}` placeholders are safe expressions (`huf.huf.safe_expression`:
parsed and checked before they run; no calls, imports, lambdas or dunder access; bounded sizes) that
see the names of the flow context (`payload`, `vars`, `nodes`, `last`, `item`...; docs/flows.md).
`safe_eval_expression(expression, context)` evaluates one against a flow context.
"""

from huf.ai.flows.context import evaluate, interpolate, names, render
from huf.huf.safe_expression import ExpressionError, check

__all__ = ["ExpressionError", "check", "evaluate", "interpolate", "names", "render", "safe_eval_expression"]


def safe_eval_expression(expression: str, context: dict) -> object:
	"""The value of `expression` over the flow context `context` (raises ExpressionError)."""
	return evaluate(expression, context, "Expression")
