"""Speech to text through `litellm.transcription`.

Model, three tiers: 1. the call's `model`; 2. `agent.stt_model` (an AI Model: its own provider's
key is used); 3. the main provider's default STT model, else whisper-1. Without an agent the
enabled OpenAI Settings, then Groq Settings, give the provider, model and (optionally) key.
Audio comes from a File the caller may read, or from a public URL fetched with SSRF protection.
"""

from dataclasses import dataclass, replace
from typing import Any
from urllib.parse import urlsplit

import frappe
from frappe import _
from frappe.utils import cint

from huf.ai.media import common

DEFAULT_STT_MODELS = {
	"openai": "whisper-1",
	"azure": "whisper-1",
	"groq": "whisper-large-v3",
	"deepgram": "nova-2",
	"gemini": "gemini-2.5-flash",
	"elevenlabs": "scribe_v1",
	"fireworks_ai": "whisper-v3",
}
FALLBACK_STT_MODEL = "whisper-1"
MAX_AUDIO_BYTES = 25 * 1024 * 1024
SETTINGS_DOCTYPES = ("OpenAI Settings", "Groq Settings")
NOT_CONFIGURED = "Speech to text is not configured: set STT Model on the agent, or enable OpenAI Settings or Groq Settings."


@dataclass
class STTConfig:
	provider: Any  # AI Provider name or ProviderConfig
	model: str | None
	source: str  # "param", "agent", "default", "settings"


def resolve_stt_config(agent: Any, model: str | None = None) -> STTConfig | None:
	"""Pick the STT provider and model by the three tiers; None when nothing is configured."""
	main = common.main_target(agent)
	if model:
		target = common.model_target(model, main)
		if target.provider:
			return STTConfig(target.provider, target.model, "param")
		settings = _settings_config()
		return STTConfig(settings.provider, model, "param") if settings else None
	if agent and agent.get("stt_model"):
		target = common.model_target(agent.stt_model, main)
		return STTConfig(target.provider, target.model, "agent")
	if main.provider:
		prefix = common.prefix_of(main.provider)
		return STTConfig(main.provider, DEFAULT_STT_MODELS.get(prefix, FALLBACK_STT_MODEL), "default")
	return _settings_config()


def _settings_config() -> STTConfig | None:
	"""The first enabled OpenAI Settings / Groq Settings as a provider config."""
	from frappe.utils.password import get_decrypted_password

	from huf.ai.providers.calls import get_provider_config
	from huf.ai.providers.types import ProviderConfig

	for doctype in SETTINGS_DOCTYPES:
		settings = frappe.get_cached_doc(doctype)
		if not cint(settings.get("enabled")):
			continue
		key = get_decrypted_password(doctype, doctype, "api_key", raise_exception=False) or None
		api_base = _api_base(settings.get("api_url"))
		if settings.get("provider"):
			base = get_provider_config(settings.provider)
			config = replace(base, api_key=key or base.api_key, api_base=api_base or base.api_base)
		else:
			config = ProviderConfig(doctype.split(" ")[0], key, api_base)
		prefix = "groq" if doctype.startswith("Groq") else "openai"
		return STTConfig(config, settings.get("model") or DEFAULT_STT_MODELS[prefix], "settings")
	return None


def _api_base(api_url: str | None) -> str | None:
	"""The API base of a full transcription endpoint URL (".../v1/audio/transcriptions" -> ".../v1")."""
	url = (api_url or "").strip().rstrip("/")
	for suffix in ("/audio/transcriptions", "/audio/translations"):
		if url.endswith(suffix):
			return url[: -len(suffix)]
	return url or None


def load_audio(
	audio_file_url: str | None = None, file_id: str | None = None, file_url: str | None = None
) -> tuple[bytes, str, str]:
	"""(bytes, file name, url) of the audio: a File the user may read, or a public http(s) URL."""
	url = (audio_file_url or file_url or "").strip()
	if not file_id and urlsplit(url).scheme in ("http", "https"):
		local = _local_path(url)
		if local is None:
			from huf.ai.http.safe_client import safe_request

			response = safe_request("GET", url, timeout=60, max_bytes=MAX_AUDIO_BYTES)
			if not response.ok:
				frappe.throw(_("Could not download the audio (HTTP {0}).").format(response.status_code))
			if response.truncated:
				frappe.throw(_("The audio is larger than {0} MB.").format(MAX_AUDIO_BYTES // 1024 // 1024))
			name = urlsplit(response.url).path.rsplit("/", 1)[-1] or "audio"
			if "." not in name:
				name += "." + common.extension_for(response.headers.get("content-type"), "mp3")
			return response.content, name, url
		url = local
	file_doc = common.find_file(file_id, url or None)
	common.check_file_access(file_doc)
	return common.read_file(file_doc), file_doc.file_name, file_doc.file_url


def _local_path(url: str) -> str | None:
	"""The path of a URL on this site's own host (e.g. https://site/files/a.mp3 -> /files/a.mp3)."""
	path = urlsplit(url).path
	host = (urlsplit(url).hostname or "").lower()
	own = {(frappe.local.site or "").lower()}
	try:
		own.add((urlsplit(frappe.utils.get_url()).hostname or "").lower())
	except Exception:
		pass
	if host in own and (path.startswith("/files/") or path.startswith("/private/files/")):
		return path
	return None


def speech_to_text(
	audio_file_url: str | None = None,
	language: str | None = None,
	model: str | None = None,
	file_id: str | None = None,
	file_url: str | None = None,
	prompt: str | None = None,
	*,
	conversation: str | None = None,
	agent: str | None = None,
	**_ignored: Any,
) -> dict:
	"""Transcribe audio; returns success, text, language, audio_file_url and the model used."""
	if not (audio_file_url or file_id or file_url):
		return common.failure(_("Pass the audio as file_id or audio_file_url."))
	config = _config(agent, conversation, model)
	if config is None:
		return common.failure(_(NOT_CONFIGURED))
	try:
		content, name, source_url = load_audio(audio_file_url, file_id, file_url)
	except frappe.PermissionError:
		raise
	except frappe.ValidationError as exc:
		return common.failure(str(exc), audio_file_url=audio_file_url or file_url)
	return _transcribe(config, content, name, source_url, language, prompt)


def transcribe_content(
	content: bytes,
	filename: str,
	agent: str | None = None,
	conversation: str | None = None,
	language: str | None = None,
	model: str | None = None,
) -> dict:
	"""Transcribe audio bytes the caller sent (as `speech_to_text`, without a File to read)."""
	config = _config(agent, conversation, model)
	if config is None:
		return common.failure(_(NOT_CONFIGURED))
	return _transcribe(config, content, filename, None, language, None)


def _config(agent: str | None, conversation: str | None, model: str | None) -> STTConfig | None:
	"""The STT config of the call (the agent checked for the caller); None when none is configured."""
	model = (model or "").strip() or None  # blank: not given
	config = resolve_stt_config(common.resolve_agent(agent, conversation), model)
	return config if config is not None and config.model else None


def _transcribe(
	config: STTConfig,
	content: bytes,
	name: str,
	source_url: str | None,
	language: str | None,
	prompt: str | None,
) -> dict:
	from huf.ai.providers.calls import transcription

	language = (language or "").strip() or None
	answer = transcription(config.provider, config.model, content, name, language=language, prompt=prompt)
	return {
		"success": True,
		"text": answer.text,
		"language": answer.language or language,
		"audio_file_url": source_url,
		"model": answer.model,
		"duration": answer.duration,
	}


@frappe.whitelist(methods=["POST"])
def transcribe_audio(
	audio_file_url: str | None = None,
	language: str | None = "en",
	model: str | None = None,
	agent: str | None = None,
	file_id: str | None = None,
) -> dict:
	"""REST: transcribe a File the caller may read (or a public URL). Needs the right to run agents."""
	if frappe.session.user == "Guest":
		frappe.throw(_("Please log in to transcribe audio."), frappe.PermissionError)
	if agent:
		common.resolve_agent(agent)  # refuse an agent the caller may not run before anything else
	elif not frappe.has_permission("Agent Conversation", "create"):
		frappe.throw(_("Your role may not use speech to text."), frappe.PermissionError)
	return speech_to_text(
		audio_file_url=audio_file_url, language=language, model=model, agent=agent, file_id=file_id
	)
