"""Gmail tools: send, draft, search, read and mark mail as read through the Gmail REST API (OAuth 2.0)."""

import base64
import html
import re
from email.message import EmailMessage
from urllib.parse import quote

import frappe
from frappe import _

from huf.ai.integrations.client import service_client
from huf.ai.integrations.services.tool_params import cap_text, limit_of, param, require, tool

SERVICE = "gmail"
MESSAGES = "/gmail/v1/users/me/messages"
BODY_LIMIT = 20000


def _no_line_breaks(value: str, label: str) -> str:
	if "\r" in value or "\n" in value:
		frappe.throw(
			_("{0} may not contain line breaks (header injection refused).").format(label),
			frappe.ValidationError,
		)
	return value


def _addresses(value) -> str:
	return ", ".join(str(v).strip() for v in value) if isinstance(value, list) else str(value).strip()


def build_raw(to: str | list, subject: str, body: str, cc: str | list | None = None) -> str:
	"""The base64url RFC 2822 message Gmail's `raw` field expects."""
	message = EmailMessage()
	message["To"] = _no_line_breaks(_addresses(to), "to")
	if cc:
		message["Cc"] = _no_line_breaks(_addresses(cc), "cc")
	message["Subject"] = _no_line_breaks(subject, "subject")
	message.set_content(body or "")
	return base64.urlsafe_b64encode(message.as_bytes()).decode("ascii")


def gmail_send_email(
	to: str,
	subject: str,
	body: str,
	cc: str | None = None,
	thread_id: str | None = None,
	settings: str | None = None,
) -> dict:
	"""Send an email from the connected Gmail account."""
	require(to, "to")
	require(subject, "subject")
	raw = build_raw(to, str(subject), str(body or ""), cc or None)
	payload = {"raw": raw}
	if thread_id:
		payload["threadId"] = str(thread_id)
	sent = service_client(SERVICE, settings).request("POST", f"{MESSAGES}/send", json=payload)
	return {"sent": True, "id": sent.get("id"), "thread_id": sent.get("threadId")}


def gmail_create_draft(
	to: str, subject: str, body: str, cc: str | None = None, settings: str | None = None
) -> dict:
	"""Save a draft in the connected Gmail account (nothing is sent)."""
	require(to, "to")
	require(subject, "subject")
	raw = build_raw(to, str(subject), str(body or ""), cc or None)
	draft = service_client(SERVICE, settings).request(
		"POST", "/gmail/v1/users/me/drafts", json={"message": {"raw": raw}}
	)
	message = draft.get("message") or {}
	return {
		"created": True,
		"draft_id": draft.get("id"),
		"message_id": message.get("id"),
		"thread_id": message.get("threadId"),
	}


def gmail_mark_as_read(message_id: str, settings: str | None = None) -> dict:
	"""Remove the UNREAD label of a message."""
	path = f"{MESSAGES}/{quote(str(require(message_id, 'message_id')), safe='')}/modify"
	answer = service_client(SERVICE, settings).request("POST", path, json={"removeLabelIds": ["UNREAD"]})
	return {"marked_read": True, "id": answer.get("id"), "labels": answer.get("labelIds") or []}


def _headers(payload: dict) -> dict[str, str]:
	return {h.get("name", "").lower(): h.get("value", "") for h in payload.get("headers") or []}


def gmail_search_emails(query: str, limit: int | None = None, settings: str | None = None) -> dict:
	"""Messages matching a Gmail search query, newest first: from, subject, date, snippet."""
	require(query, "query")
	client = service_client(SERVICE, settings)
	found = client.request("GET", MESSAGES, params={"q": query, "maxResults": limit_of(limit)})
	messages = []
	for item in (found.get("messages") or [])[: limit_of(limit)]:
		message = client.request(
			"GET",
			f"{MESSAGES}/{quote(str(item['id']), safe='')}",
			params={"format": "metadata", "metadataHeaders": ["From", "Subject", "Date"]},
		)
		headers = _headers(message.get("payload") or {})
		messages.append(
			{
				"id": message.get("id"),
				"thread_id": message.get("threadId"),
				"from": headers.get("from"),
				"subject": headers.get("subject"),
				"date": headers.get("date"),
				"snippet": html.unescape(message.get("snippet") or ""),
			}
		)
	return {"count": len(messages), "messages": messages}


def _decode(data: str | None) -> str:
	if not data:
		return ""
	padded = data + "=" * (-len(data) % 4)
	return base64.urlsafe_b64decode(padded).decode("utf-8", errors="replace")


def _find_part(payload: dict, mime_type: str) -> dict | None:
	if payload.get("mimeType") == mime_type and (payload.get("body") or {}).get("data"):
		return payload
	for part in payload.get("parts") or []:
		found = _find_part(part, mime_type)
		if found:
			return found
	return None


def _text_of(payload: dict) -> str:
	part = _find_part(payload, "text/plain")
	if part:
		return _decode(part["body"]["data"])
	part = _find_part(payload, "text/html")
	if part:
		return html.unescape(re.sub(r"<[^>]+>", " ", _decode(part["body"]["data"]))).strip()
	return ""


def gmail_read_email(message_id: str, settings: str | None = None) -> dict:
	"""One message with its plain-text body (capped)."""
	require(message_id, "message_id")
	message = service_client(SERVICE, settings).request(
		"GET", f"{MESSAGES}/{quote(str(message_id), safe='')}", params={"format": "full"}
	)
	payload = message.get("payload") or {}
	headers = _headers(payload)
	body, truncated = cap_text(_text_of(payload), BODY_LIMIT)
	return {
		"id": message.get("id"),
		"thread_id": message.get("threadId"),
		"from": headers.get("from"),
		"to": headers.get("to"),
		"cc": headers.get("cc"),
		"subject": headers.get("subject"),
		"date": headers.get("date"),
		"body": body,
		"truncated": truncated,
	}


_PATH = "huf.ai.integrations.services.gmail."
TOOLS = [
	tool(
		"gmail_send_email",
		_PATH + "gmail_send_email",
		"Send an email from the connected Gmail account.",
		[
			param("to", "string", "Recipient address(es), comma-separated.", 1),
			param("subject", "string", "Subject line.", 1),
			param("body", "string", "Plain-text body.", 1),
			param("cc", "string", "Cc address(es), comma-separated."),
			param("thread_id", "string", "Gmail thread id to reply in."),
		],
		requires_approval=True,
	),
	tool(
		"gmail_create_draft",
		_PATH + "gmail_create_draft",
		"Save an email as a draft in the connected Gmail account (it is not sent).",
		[
			param("to", "string", "Recipient address(es), comma-separated.", 1),
			param("subject", "string", "Subject line.", 1),
			param("body", "string", "Plain-text body.", 1),
			param("cc", "string", "Cc address(es), comma-separated."),
		],
	),
	tool(
		"gmail_mark_as_read",
		_PATH + "gmail_mark_as_read",
		"Mark a Gmail message as read.",
		[param("message_id", "string", "Message id from gmail_search_emails.", 1)],
	),
	tool(
		"gmail_search_emails",
		_PATH + "gmail_search_emails",
		"Search Gmail (Gmail search syntax, e.g. 'from:anna is:unread'); returns from, subject, date, snippet and id.",
		[
			param("query", "string", "Gmail search query.", 1),
			param("limit", "integer", "How many messages (1-50, default 10)."),
		],
	),
	tool(
		"gmail_read_email",
		_PATH + "gmail_read_email",
		"Read one Gmail message by id: headers and the plain-text body.",
		[param("message_id", "string", "Message id from gmail_search_emails.", 1)],
	),
]
