"""Client Side tools outside an agent run: the run's user's browser answers them (huf.ai.runtime.client_calls)."""

from typing import Any

import frappe
from frappe import _

from huf.ai.runtime.tools import ToolContext
from huf.ai.tools.spec import ToolSpec


def client_side(spec: ToolSpec, args: dict, context: ToolContext) -> Any:
	"""Refuse: in an agent run the loop hands the call to the browser before any handler runs."""
	frappe.throw(
		_("{0} runs in the browser of a signed-in user during a chat run, so it could not run here.").format(
			spec.name
		)
	)
