"""Stream tokens: what a browser's `EventSource` (a GET) needs to start a streamed run (docs/chat-and-stream.md).

POST only (Frappe checks the session's CSRF token; API tokens need none), never guests.
"""

from urllib.parse import quote

import frappe
from frappe import _

from huf.ai.agent_stream_renderer import ROUTE, check_can_stream
from huf.ai.runtime import stream_tokens
from huf.ai.runtime.run_request import RunRequest
from huf.request_limits import check_prompt_length


@frappe.whitelist(methods=["POST"])
def stream_token(
	agent: str,
	prompt: str,
	conversation_id: str | None = None,
	channel_id: str | None = None,
	external_id: str | None = None,
	attachments: list | str | None = None,
) -> dict:
	"""A single-use token for `GET /huf/stream/<agent>?token=...`, valid `expires_in` seconds, that starts
	the run of `agent` on `prompt` as the caller; the same checks as `POST /huf/stream/<agent>` come first."""
	if frappe.session.user == "Guest":
		frappe.throw(_("Sign in to stream an agent's answer."), frappe.PermissionError)
	if not isinstance(prompt, str) or not prompt.strip():
		frappe.throw(_("Write a prompt for the agent."), frappe.ValidationError)
	check_prompt_length(prompt)
	ids = {}
	for key, value in (
		("conversation", conversation_id),
		("channel", channel_id),
		("external_id", external_id),
	):
		if value not in (None, ""):
			if not isinstance(value, str | int):
				frappe.throw(_("{0} must be text.").format(key))
			ids[key] = str(value)
	request = RunRequest(agent, prompt, attachments=attachments or None, **ids)
	check_can_stream(request)
	token = stream_tokens.issue(request)
	return {
		"token": token,
		"expires_in": stream_tokens.token_seconds(),
		"stream_url": f"/{ROUTE}/{quote(agent, safe='')}?token={token}",
	}
