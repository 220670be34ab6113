"""What the media tools share: finding and reading Files with permission checks, saving outputs as
private Files attached to the conversation, and picking the agent, provider and model of a call."""

from __future__ import annotations

import hashlib
import os
from dataclasses import dataclass
from typing import Any
from urllib.parse import unquote, urlsplit

import frappe
from frappe import _

MAX_FILE_BYTES = 50 * 1024 * 1024
IMAGE_EXTENSIONS = frozenset({"png", "jpg", "jpeg", "gif", "webp", "bmp", "tif", "tiff"})
IMAGE_MIME = {"jpg": "image/jpeg", "jpeg": "image/jpeg", "tif": "image/tiff", "tiff": "image/tiff"}


# --- files -----------------------------------------------------------------------------------


def find_file(file_id: str | None = None, file_url: str | None = None) -> Any:
	"""The File record named `file_id`, else the newest File whose URL (public or private) or name
	matches `file_url`. Throws DoesNotExistError with a message the model can act on."""
	if file_id:
		if frappe.db.exists("File", file_id):
			return frappe.get_doc("File", file_id)
		if not file_url:
			frappe.throw(
				_("File {0} does not exist. Check the file_id.").format(file_id), frappe.DoesNotExistError
			)
	if not file_url:
		frappe.throw(_("Pass file_id (preferred) or file_url."), frappe.ValidationError)
	path = unquote(urlsplit(file_url.strip()).path)
	name = path.rsplit("/", 1)[-1]
	candidates = [path]
	if "/files/" in path:
		tail = path.split("/files/", 1)[1]
		candidates = [f"/files/{tail}", f"/private/files/{tail}"]
	for filters in ({"file_url": ("in", candidates)}, {"file_name": name}):
		names = frappe.get_all("File", filters=filters, pluck="name", order_by="creation desc", limit=1)
		if names:
			return frappe.get_doc("File", names[0])
	frappe.throw(
		_("No file found for {0}. Check the URL or pass file_id.").format(file_url), frappe.DoesNotExistError
	)


def check_file_access(file_doc: Any, user: str | None = None) -> None:
	"""Throw PermissionError unless `user` may read the File: Frappe's File rule (DocPerms, own files,
	read access to the attached document), and public files, which anyone can download anyway."""
	user = user or frappe.session.user
	if not file_doc.is_private or frappe.has_permission("File", "read", doc=file_doc, user=user):
		return
	frappe.throw(
		_("You are not allowed to read file {0}.").format(file_doc.file_name), frappe.PermissionError
	)


def read_file(file_doc: Any) -> bytes:
	"""The File's bytes (local files only), refusing very large files."""
	if (file_doc.file_url or "").startswith(("http://", "https://")):
		frappe.throw(_("File {0} is a remote link; upload the file instead.").format(file_doc.file_name))
	path = file_doc.get_full_path()
	if not os.path.exists(path):
		frappe.throw(
			_("The content of file {0} is missing on disk.").format(file_doc.file_name),
			frappe.DoesNotExistError,
		)
	if os.path.getsize(path) > MAX_FILE_BYTES:
		frappe.throw(
			_("File {0} is larger than {1} MB.").format(file_doc.file_name, MAX_FILE_BYTES // 1024 // 1024)
		)
	with open(path, "rb") as f:
		return f.read()


def sha256(content: bytes) -> str:
	return hashlib.sha256(content).hexdigest()


def check_conversation_access(conversation: str | None) -> None:
	"""Throw unless the session user owns the conversation or may write it (files get attached there)."""
	if not conversation:
		return
	owner = frappe.db.get_value("Agent Conversation", conversation, "user")
	if owner is None:
		frappe.throw(_("Agent Conversation {0} not found.").format(conversation), frappe.DoesNotExistError)
	if owner == frappe.session.user:
		return
	if not frappe.has_permission("Agent Conversation", "write", doc=conversation):
		frappe.throw(_("You are not allowed to add files to this conversation."), frappe.PermissionError)


def save_output(content: bytes, filename: str, conversation: str | None) -> Any:
	"""Store generated content as a private File attached to the conversation (if any).

	The bytes go to the File as its `content`: Frappe writes them as given. (`file_manager.save_file`
	writes the file, then the File re-reads it as text when the bytes happen to decode, e.g. as
	windows-1252, and stores that text re-encoded as UTF-8: a corrupted image.)
	"""
	return new_file(filename, content, "Agent Conversation" if conversation else None, conversation)


def new_file(
	filename: str, content: bytes, doctype: str | None = None, name: str | None = None, is_private: int = 1
) -> Any:
	"""A File holding exactly `content` (private by default), attached to doctype/name when given."""
	return frappe.get_doc(
		{
			"doctype": "File",
			"file_name": filename,
			"attached_to_doctype": doctype,
			"attached_to_name": name,
			"is_private": is_private,
			"content": content,
		}
	).insert(ignore_permissions=True)


# --- agent, provider, model ------------------------------------------------------------------


@dataclass
class Target:
	"""Where a media call goes: AI Provider name, model name (as the provider knows it), the agent."""

	provider: str | None
	model: str | None
	agent: Any = None


def resolve_agent(agent: str | None = None, conversation: str | None = None) -> Any:
	"""The Agent of the call (given, or the conversation's), checked for the session user; or None."""
	from huf.huf.run_access import check_can_run, load_agent

	if not agent and conversation:
		agent = frappe.db.get_value("Agent Conversation", conversation, "agent")
	if not agent:
		return None
	doc = load_agent(agent)
	check_can_run(doc)
	return doc


def ai_model(name: str | None) -> tuple[str | None, str | None]:
	"""(model_name, provider) of an AI Model record, or (None, None)."""
	if not name:
		return None, None
	row = frappe.db.get_value("AI Model", name, ["model_name", "provider"], as_dict=True)
	return (row.model_name or name, row.provider) if row else (None, None)


def main_target(agent: Any) -> Target:
	"""The agent's own provider and model."""
	model, model_provider = ai_model(agent.model) if agent else (None, None)
	return Target(provider=(agent.provider if agent else None) or model_provider, model=model, agent=agent)


def model_target(model: str, main: Target) -> Target:
	"""`model` (an AI Model record, else a plain model name) on its own provider, else on `main`'s."""
	model_name, model_provider = ai_model(model)
	return Target(provider=model_provider or main.provider, model=model_name or model, agent=main.agent)


def prefix_of(provider: str | None, model: str | None = None) -> str:
	"""The LiteLLM prefix that decides provider defaults ("openai", "groq", "gemini"...)."""
	from huf.ai.providers.model_names import litellm_prefix_of, provider_kind, provider_prefix

	if model and "/" in model:
		prefix = litellm_prefix_of(model)
		if prefix:
			return prefix
	api_base = frappe.db.get_value("AI Provider", provider, "api_base") if provider else None
	return provider_prefix(provider_kind(provider)) or ("openai" if api_base else "") or ""


def extension_for(content_type: str | None, default: str) -> str:
	content_type = (content_type or "").split(";")[0].strip().lower()
	known = {
		"image/png": "png",
		"image/jpeg": "jpg",
		"image/webp": "webp",
		"image/gif": "gif",
		"audio/mpeg": "mp3",
		"audio/mp3": "mp3",
		"audio/wav": "wav",
		"audio/x-wav": "wav",
		"audio/ogg": "ogg",
		"audio/opus": "opus",
		"audio/aac": "aac",
		"audio/flac": "flac",
	}
	return known.get(content_type, default)


def failure(message: str, **extra: Any) -> dict:
	"""The result of a tool call that could not be done, for the model to read."""
	return {"success": False, "error": message, **extra}
