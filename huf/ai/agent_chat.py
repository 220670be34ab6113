"""Chat endpoints: conversations and their messages for the chat UIs, and sending a message to an agent.

Every endpoint checks that the caller may read (history; signed-in users need chat.view_own) or write
(send, add) the conversation; a missing and a forbidden conversation are refused alike. Sending goes
through `huf.ai.agent_integration.run_agent_sync` (inline with `now=1`, the default here; queued with
`now=0`).
"""

from typing import Any

import frappe
from frappe import _
from frappe.utils import cint

from huf.ai.conversation.manager import DENIED, ConversationManager
from huf.ai.runtime.content_blocks import stored_blocks
from huf.huf.capability_access import check_can_read
from huf.huf.record_access import is_privileged
from huf.huf.validators import check_text_fits

DEFAULT_LIMIT = 50
MAX_LIMIT = 500
MAX_TOKEN_ESTIMATE = 2**31 - 1  # an Int column
MESSAGE_FIELDS = [
	"name",
	"conversation_index",
	"role",
	"kind",
	"content",
	"attachment",
	"creation",
	"status",
	"agent_run",
	"tool_name",
	"tool_call_id",
	"tool_calls",
	"tool_status",
	"visibility",
	"content_blocks",
]
HIDDEN_FROM_UI = ("model_visible", "audit_only")
MAX_MARKDOWN_CHARS = 200_000


# --- reading -----------------------------------------------------------------------------------


@frappe.whitelist()
def get_history(conversation_id: str, limit: int = DEFAULT_LIMIT) -> list[dict]:
	"""The newest `limit` messages of a conversation the caller may read, oldest first."""
	conversation = get_conversation(conversation_id, "read")
	return conversation_messages(conversation.name, limit)


@frappe.whitelist()
def get_agent_chat_messages(
	agent: str | None = None, conversation: str | None = None, limit: int = DEFAULT_LIMIT
) -> dict:
	"""Messages for the Agent Chat UI: of `conversation`, else of the caller's latest chat with `agent`."""
	if conversation:
		doc = get_conversation(conversation, "read")
	elif agent:
		doc = latest_conversation(agent)
		if doc is None:
			return {"conversation": None, "agent": agent, "title": None, "messages": []}
	else:
		frappe.throw(_("Name an agent or a conversation."))
	return {
		"conversation": doc.name,
		"agent": doc.agent,
		"title": doc.title,
		"messages": conversation_messages(doc.name, limit),
	}


# --- conversations -----------------------------------------------------------------------------


@frappe.whitelist(methods=["POST"])
def create_conversation(agent: str, channel: str | None = None, title: str | None = None) -> dict:
	"""A new conversation of the caller with `agent`, without running it."""
	check_agent(agent)
	external_id = f"{frappe.session.user}:{frappe.generate_hash(length=10)}"
	doc = ConversationManager(agent, channel or "chat", external_id).create_conversation(title)
	return conversation_info(doc)


@frappe.whitelist(methods=["POST"])
def new_conversation(agent: str, message: str | None = None, now: int = 1) -> dict:
	"""A new conversation with `agent`; with `message`, the agent is asked it right away."""
	info = create_conversation(agent)
	if not message:
		return info
	result = run(agent, message, info["conversation_id"], now)
	return {**info, **result}


@frappe.whitelist(methods=["POST"])
def send_message_to_conversation(conversation: str, message: str, now: int = 1) -> dict:
	"""Ask the agent of `conversation` (which the caller may write) `message`."""
	doc = get_conversation(conversation, "write")
	return run(doc.agent, message, doc.name, now)


@frappe.whitelist(methods=["POST"])
def add_message(
	conversation_id: str,
	role: str,
	content: str,
	record_kind: str | None = None,
	context_policy: str | None = None,
	context_summary: str | None = None,
	reference_doctype: str | None = None,
	reference_name: str | None = None,
	visibility: str | None = None,
	token_estimate: int | None = None,
) -> dict:
	"""Append a message without running the agent (users: their own `user` messages; managers: any role)."""
	doc = get_conversation(conversation_id, "write")
	token_estimate = cint(token_estimate) if token_estimate not in (None, "") else None
	if token_estimate is not None and not 0 <= token_estimate <= MAX_TOKEN_ESTIMATE:
		frappe.throw(_("token_estimate must be between 0 and {0}.").format(MAX_TOKEN_ESTIMATE))
	check_text_fits(context_summary, "context_summary")
	if role != "user" and not is_privileged():
		frappe.throw(
			_("Only Huf Managers may add {0} messages.").format(frappe.bold(role)), frappe.PermissionError
		)
	if (
		reference_doctype
		and reference_name
		and not frappe.has_permission(reference_doctype, "read", reference_name)
	):
		frappe.throw(
			_("You cannot read {0} {1}.").format(reference_doctype, frappe.bold(reference_name)),
			frappe.PermissionError,
		)
	manager = ConversationManager(doc.agent, doc.channel, doc.external_id, session_id=doc.session_id)
	message = manager.add_message(
		doc,
		role,
		content,
		record_kind=record_kind,
		context_policy=context_policy,
		context_summary=context_summary,
		reference_doctype=reference_doctype,
		reference_name=reference_name,
		visibility=visibility,
		token_estimate=token_estimate,
	)
	return {field: message.get(field) for field in MESSAGE_FIELDS} | {"content_blocks": None}


# --- sending -----------------------------------------------------------------------------------


@frappe.whitelist(methods=["POST"])
def send_agent_chat_message(agent: str, message: str, conversation: str | None = None, now: int = 1) -> dict:
	"""Agent Chat: ask `agent` (with Allow Chat) `message` in `conversation` or the caller's chat session."""
	check_agent(agent, chat=True)
	if conversation:
		conversation = get_conversation(conversation, "write", agent=agent).name
	return run(agent, message, conversation, now)


@frappe.whitelist(methods=["POST"])
def send_message(
	docname: str | None = None, message: str | None = None, agent: str | None = None, now: int = 1
) -> dict:
	"""Agent Chat document `docname` (or just `agent`): send `message` and remember the conversation."""
	chat = None
	if docname:
		chat = frappe.get_doc("Agent Chat", docname)
		chat.check_permission("write")
		if agent and agent != chat.agent:
			frappe.throw(_("This chat belongs to agent {0}.").format(frappe.bold(chat.agent)))
		agent = chat.agent
	if not agent:
		frappe.throw(_("Choose an agent."))
	result = send_agent_chat_message(agent, message, chat.conversation if chat else None, now)
	if chat and result.get("conversation_id") and chat.conversation != result["conversation_id"]:
		chat.db_set("conversation", result["conversation_id"])
	return result


# --- voice messages and files ------------------------------------------------------------------


@frappe.whitelist(methods=["POST"])
def upload_audio_and_transcribe_web(
	filename: str, b64data: str, agent: str, conversation: str | None = None, transcribe_only: int = 0
) -> dict:
	"""Dashboard microphone: transcribe a recording and, unless `transcribe_only`, ask `agent` the transcript."""
	check_agent(agent)
	if conversation:
		conversation = get_conversation(conversation, "write", agent=agent).name
	return transcribe_upload(filename, b64data, agent, conversation, send=not cint(transcribe_only))


@frappe.whitelist(methods=["POST"])
def upload_audio_and_transcribe(
	filename: str,
	b64data: str,
	docname: str | None = None,
	agent: str | None = None,
	conversation: str | None = None,
) -> dict:
	"""Agent Chat / Agent Console `docname`: transcribe a recording and send the transcript to the agent."""
	doc, agent, conversation = chat_target(docname, agent, conversation)
	result = transcribe_upload(filename, b64data, agent, conversation, send=True)
	remember_conversation(doc, result["conversation_id"])
	return result


@frappe.whitelist(methods=["POST"])
def upload_file_and_process(
	docname: str | None = None,
	filename: str | None = None,
	b64data: str | None = None,
	agent: str | None = None,
	conversation: str | None = None,
) -> dict:
	"""Save a document or image privately in the conversation and run the agent with it attached."""
	from huf.ai.media import uploads

	doc, agent, conversation = chat_target(docname, agent, conversation)
	filename = uploads.clean_filename(filename)
	uploads.check_document(filename)
	content = uploads.decode_upload(b64data)
	conversation = conversation or create_conversation(agent)["conversation_id"]
	file_doc = uploads.save_upload(filename, content, conversation)
	prompt = _("Uploaded file: {0}").format(filename)
	result = run(agent, prompt, conversation, 1, attachments=[file_doc.file_url])
	remember_conversation(doc, conversation)
	return {
		"success": bool(result.get("success")),
		"file_id": file_doc.name,
		"file_url": file_doc.file_url,
		"conversation_id": conversation,
		"run": result,
	}


@frappe.whitelist()
def render_markdown(content: str | None = None) -> str:
	"""Markdown as HTML limited to Markdown's elements (no scripts, styles, forms, event handlers or
	javascript: links), for Huf's users."""
	from huf.huf.desk import has_app_permission

	if not has_app_permission():
		frappe.throw(_("You do not have access to Huf."), frappe.PermissionError)
	if content and len(content) > MAX_MARKDOWN_CHARS:
		frappe.throw(_("The text is too long to render (at most {0} characters).").format(MAX_MARKDOWN_CHARS))
	return markdown_to_safe_html(content or "")


# --- helpers -----------------------------------------------------------------------------------


def markdown_to_safe_html(content: str) -> str:
	"""Frappe's markdown, then only Markdown's elements with safe attributes (`huf.huf.safe_html`)."""
	from frappe.utils import md_to_html

	from huf.huf import safe_html

	return safe_html.clean(md_to_html(content) or "")


def transcribe_upload(filename: Any, b64data: Any, agent: str, conversation: str | None, send: bool) -> dict:
	"""Check and transcribe the recording, save it privately and, with `send`, run the agent with it."""
	from huf.ai.media import uploads
	from huf.ai.media.speech_to_text import transcribe_content

	filename = uploads.clean_filename(filename)
	content = uploads.decode_upload(b64data, audio=True)
	uploads.check_audio(filename, content)
	result = transcribe_content(content, filename, agent=agent, conversation=conversation)
	if not result.get("success"):
		frappe.throw(result.get("error") or _("The recording could not be transcribed."))
	transcript = (result.get("text") or "").strip()
	if send and not transcript:
		frappe.throw(_("No speech was recognised in the recording."))
	if send and not conversation:
		conversation = create_conversation(agent)["conversation_id"]
	file_doc = uploads.save_upload(filename, content, conversation)
	answer = {
		"success": True,
		"transcript": transcript,
		"language": result.get("language"),
		"file_id": file_doc.name,
		"file_url": file_doc.file_url,
		"conversation_id": conversation,
	}
	if send:
		answer["run"] = run(agent, transcript, conversation, 1)
	return answer


def chat_target(docname: Any, agent: Any, conversation: Any) -> tuple[Any, str, str | None]:
	"""(Agent Chat / Agent Console document or None, agent, conversation) after the caller's checks."""
	doc = None
	if docname == "Agent Console":
		doc = frappe.get_single("Agent Console")
		doc.check_permission("write")
		agent = agent or doc.agent_name
	elif docname:
		doc = frappe.get_doc("Agent Chat", docname)
		doc.check_permission("write")
		if agent and agent != doc.agent:
			frappe.throw(_("This chat belongs to agent {0}.").format(frappe.bold(doc.agent)))
		agent, conversation = doc.agent, conversation or doc.conversation
	if not agent or not isinstance(agent, str):
		frappe.throw(_("Choose an agent."))
	check_agent(agent, chat=bool(doc is not None and doc.doctype == "Agent Chat"))
	if conversation:
		conversation = get_conversation(conversation, "write", agent=agent).name
	return doc, agent, conversation


def remember_conversation(doc: Any, conversation: str | None) -> None:
	"""Keep the conversation on the Agent Chat document (as `send_message` does)."""
	if doc is not None and doc.doctype == "Agent Chat" and conversation and doc.conversation != conversation:
		doc.db_set("conversation", conversation)


def run(
	agent: str, message: Any, conversation: str | None, now: Any = 1, attachments: list | None = None
) -> dict:
	"""Send `message` through the queue-first runtime (inline when `now`)."""
	from huf.ai.runtime import front_door
	from huf.ai.runtime.run_request import RunRequest

	if not isinstance(message, str) or not message.strip():
		frappe.throw(_("Write a message first."))
	request = RunRequest(
		agent,
		message,
		conversation=conversation,
		channel="chat",
		now=bool(cint(now)),
		attachments=attachments,
	)
	return front_door.start(request).as_response()


def get_conversation(name: Any, ptype: str, agent: str | None = None):
	"""The conversation `name` if the caller may `ptype` it (and it belongs to `agent`, when given)."""
	if ptype == "read" and frappe.session.user != "Guest":
		check_can_read("Agent Conversation")  # chat.view_own, named before anything is looked up
	owner_agent = (
		frappe.db.get_value("Agent Conversation", name, "agent") if isinstance(name, str) and name else None
	)
	if not owner_agent or (agent and owner_agent != agent):
		frappe.throw(_(DENIED), frappe.PermissionError)
	return ConversationManager(owner_agent).get_conversation(name, ptype)


def latest_conversation(agent: str):
	"""The caller's most recently active chat conversation with `agent` (None if there is none)."""
	names = frappe.get_all(
		"Agent Conversation",
		filters={"agent": agent, "user": frappe.session.user, "is_active": 1, "channel": "chat"},
		order_by="last_activity desc, creation desc",
		limit=1,
		pluck="name",
	)
	return get_conversation(names[0], "read") if names else None


def check_agent(agent: Any, chat: bool = False) -> None:
	"""The caller may run `agent` (exists, enabled, open to them, not a viewer) and, for `chat`, it has Allow Chat."""
	from huf.huf.run_access import check_can_run, load_agent

	doc = load_agent(agent)
	check_can_run(doc)
	if chat and not doc.get("allow_chat"):
		frappe.throw(
			_("Chat is not enabled for the agent {0} (see Allow Chat).").format(frappe.bold(doc.name)),
			frappe.PermissionError,
		)


def conversation_messages(conversation: str, limit: Any = DEFAULT_LIMIT) -> list[dict]:
	"""Messages shown in chat UIs (not those meant only for the model or the audit), oldest first."""
	limit = min(max(cint(limit) or DEFAULT_LIMIT, 1), MAX_LIMIT)
	rows = frappe.get_all(
		"Agent Message",
		filters={"conversation": conversation, "visibility": ["not in", HIDDEN_FROM_UI]},
		fields=MESSAGE_FIELDS,
		order_by="conversation_index desc",
		limit=limit,
	)
	rows.reverse()
	for row in rows:
		row.content_blocks = stored_blocks(row.content_blocks)
	return rows


def conversation_info(doc) -> dict:
	return {
		"conversation_id": doc.name,
		"session_id": doc.session_id,
		"title": doc.title,
		"agent": doc.agent,
		"channel": doc.channel,
	}
