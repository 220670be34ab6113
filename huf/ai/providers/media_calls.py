"""The media calls through LiteLLM: image generation, text to speech, speech to text and OCR.

Each call takes the AI Provider (name or `ProviderConfig`) and the model like `completion()`, with the
same keys per call, retries and readable `ProviderError`s (`huf.ai.providers.litellm`), and returns a
result of `huf.ai.providers.types`. LiteLLM is imported inside the calls only.
"""

from __future__ import annotations

from typing import Any

from huf.ai.providers.litellm import (
	DEFAULT_TIMEOUT,
	_as_config,
	_call,
	_credentials,
	_get,
	default_retry_policy,
	get_litellm,
)
from huf.ai.providers.model_names import (
	litellm_prefix_of,
	normalize_model_name,
	provider_kind,
	provider_prefix,
)
from huf.ai.providers.retry import RetryPolicy
from huf.ai.providers.types import GeneratedImage, Images, OCRResult, ProviderConfig, Speech, Transcription

# LiteLLM providers with an OCR endpoint (litellm.ocr); others read PDFs locally.
OCR_PREFIXES = frozenset({"mistral", "azure_ai", "vertex_ai"})


def _media_call(
	provider: str | ProviderConfig,
	model: str,
	method: str,
	timeout: float | None,
	retry: RetryPolicy | None,
	kwargs: dict,
	**values: Any,
) -> tuple[ProviderConfig, dict, Any]:
	"""Call the LiteLLM media endpoint `method` with retries; returns (config, request, response).

	`values` that are None are left out of the request; `kwargs` (the caller's extras) go in as given.
	"""
	config = _as_config(provider)
	litellm_model = normalize_model_name(model, config.kind, config.api_base)
	request = {
		"model": litellm_model,
		"timeout": timeout or DEFAULT_TIMEOUT,
		**_credentials(config, litellm_model),
	}
	request.update({k: v for k, v in values.items() if v is not None})
	request.update(kwargs)
	endpoint = getattr(get_litellm(), method)
	response, _attempts, _trimmed = _call(
		config, request, retry or default_retry_policy(), None, lambda kw: endpoint(**kw)
	)
	return config, request, response


def image_generation(
	provider: str | ProviderConfig,
	model: str,
	prompt: str,
	*,
	n: int | None = None,
	size: str | None = None,
	quality: str | None = None,
	timeout: float | None = None,
	retry: RetryPolicy | None = None,
	**kwargs: Any,
) -> Images:
	"""Generate images with `litellm.image_generation`; same keys, retries and errors as `completion`."""
	config, request, response = _media_call(
		provider,
		model,
		"image_generation",
		timeout,
		retry,
		kwargs,
		prompt=prompt,
		n=n,
		size=size,
		quality=quality,
		drop_params=True,
		max_retries=0,
	)
	images = [
		GeneratedImage(
			b64_json=_get(item, "b64_json"),
			url=_get(item, "url"),
			revised_prompt=_get(item, "revised_prompt"),
		)
		for item in _get(response, "data") or []
	]
	return Images(images=images, model=request["model"], provider=config.name, raw=response)


def speech(
	provider: str | ProviderConfig,
	model: str,
	input: str,  # noqa: A002 - LiteLLM's name
	*,
	voice: str | None = None,
	speed: float | None = None,
	response_format: str | None = None,
	timeout: float | None = None,
	retry: RetryPolicy | None = None,
	**kwargs: Any,
) -> Speech:
	"""Text to speech with `litellm.speech`; returns the audio bytes."""
	config, request, response = _media_call(
		provider,
		model,
		"speech",
		timeout,
		retry,
		kwargs,
		input=input,
		voice=voice,
		speed=speed,
		response_format=response_format,
		max_retries=0,
	)
	audio = _get(response, "content")
	if audio is None and hasattr(response, "read"):
		audio = response.read()
	headers = _get(_get(response, "response"), "headers") or {}
	content_type = (headers.get("content-type") if hasattr(headers, "get") else None) or ""
	return Speech(
		audio=bytes(audio or b""), content_type=content_type, model=request["model"], provider=config.name
	)


def transcription(
	provider: str | ProviderConfig,
	model: str,
	file: bytes,
	filename: str,
	*,
	language: str | None = None,
	prompt: str | None = None,
	timeout: float | None = None,
	retry: RetryPolicy | None = None,
	**kwargs: Any,
) -> Transcription:
	"""Speech to text with `litellm.transcription` (`file` is the audio's bytes)."""
	config, request, response = _media_call(
		provider,
		model,
		"transcription",
		timeout,
		retry,
		kwargs,
		file=(filename, bytes(file)),
		language=language,
		prompt=prompt,
		max_retries=0,
	)
	duration = _get(response, "duration")
	return Transcription(
		text=_get(response, "text") or "",
		language=_get(response, "language") or language,
		model=request["model"],
		provider=config.name,
		duration=float(duration) if duration is not None else None,
		raw=response,
	)


def supports_ocr(provider: str | ProviderConfig, model: str | None = None) -> bool:
	"""True when the provider (or the model's LiteLLM prefix) has a LiteLLM OCR endpoint."""
	name = provider.kind if isinstance(provider, ProviderConfig) else provider_kind(provider)
	api_base = provider.api_base if isinstance(provider, ProviderConfig) else None
	prefix = (
		litellm_prefix_of(normalize_model_name(model, name, api_base)) if model else provider_prefix(name)
	)
	return prefix in OCR_PREFIXES


def ocr(
	provider: str | ProviderConfig,
	model: str,
	document: dict,
	*,
	timeout: float | None = None,
	retry: RetryPolicy | None = None,
	**kwargs: Any,
) -> OCRResult:
	"""OCR a document with `litellm.ocr`; `document` is {"type": "document_url"|"image_url", ...}."""
	config, request, response = _media_call(provider, model, "ocr", timeout, retry, kwargs, document=document)
	pages = []
	for index, page in enumerate(_get(response, "pages") or []):
		images = [
			{"id": _get(image, "id"), "image_base64": _get(image, "image_base64")}
			for image in _get(page, "images") or []
		]
		page_index = _get(page, "index")
		pages.append(
			{
				"index": index if page_index is None else page_index,
				"markdown": _get(page, "markdown") or "",
				"images": images,
			}
		)
	usage = _get(response, "usage_info")
	usage = usage.model_dump() if hasattr(usage, "model_dump") else dict(usage or {})
	return OCRResult(pages=pages, model=request["model"], provider=config.name, usage=usage, raw=response)
