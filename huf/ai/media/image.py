"""`generate_image`: images from a text prompt through `litellm.image_generation`, saved as private
Files attached to the conversation."""

import base64
import binascii
from typing import Any

import frappe
from frappe import _
from frappe.utils import cint

from huf.ai.media import common

DEFAULT_IMAGE_MODELS = {
	"openai": "dall-e-3",
	"azure": "dall-e-3",
	"gemini": "imagen-4.0-generate-001",
	"vertex_ai": "imagen-4.0-generate-001",
	"xai": "grok-2-image",
	"openrouter": "openai/gpt-image-1",
}
MAX_IMAGES = 4


def generate_image(
	prompt: str | None = None,
	size: str | None = "1024x1024",
	quality: str | None = "standard",
	n: int | None = 1,
	model: str | None = None,
	*,
	conversation: str | None = None,
	agent: str | None = None,
	**_ignored: Any,
) -> dict:
	"""Generate `n` images for `prompt` with the agent's provider; returns their private File URLs."""
	from huf.ai.providers.calls import image_generation

	if not (prompt or "").strip():
		return common.failure(_("Describe the image to generate in prompt."))
	common.check_conversation_access(conversation)
	target = _target(model, common.resolve_agent(agent, conversation))
	if not target.provider or not target.model:
		return common.failure(
			_("No image model is configured: pass model, or use an agent whose provider generates images.")
		)
	count = min(max(cint(n) or 1, 1), MAX_IMAGES)
	answer = image_generation(
		target.provider, target.model, prompt, n=count, size=size or None, quality=quality or None
	)
	images = []
	for index, image in enumerate(answer.images, start=1):
		content = _image_bytes(image)
		file_doc = common.save_output(content, f"generated-image-{index}.{_sniff(content)}", conversation)
		images.append(
			{
				"file_id": file_doc.name,
				"file_url": file_doc.file_url,
				"revised_prompt": image.revised_prompt,
			}
		)
	if not images:
		return common.failure(_("The provider returned no image."), model=answer.model)
	return {
		"success": True,
		"images": images,
		"model": answer.model,
		"markdown": "\n".join(f"![{_('Generated image')}]({i['file_url']})" for i in images),
	}


def _target(model: str | None, agent: Any) -> common.Target:
	main = common.main_target(agent)
	if model:
		return common.model_target(model, main)
	return common.Target(main.provider, DEFAULT_IMAGE_MODELS.get(common.prefix_of(main.provider)), agent)


def _image_bytes(image: Any) -> bytes:
	"""The image's bytes: decoded base64, or downloaded (SSRF-safe) from the provider's URL."""
	if image.b64_json:
		try:
			return base64.b64decode(image.b64_json, validate=False)
		except (binascii.Error, ValueError):
			frappe.throw(_("The provider returned an image that is not valid base64."))
	if image.url:
		from huf.ai.http.safe_client import safe_request

		response = safe_request("GET", image.url, timeout=60, max_bytes=common.MAX_FILE_BYTES)
		if not response.ok or response.truncated:
			frappe.throw(_("Could not download the generated image (HTTP {0}).").format(response.status_code))
		return response.content
	frappe.throw(_("The provider returned an image without data."))


def _sniff(content: bytes) -> str:
	"""The image format from its first bytes (providers return PNG, JPEG or WebP)."""
	if content.startswith(b"\xff\xd8"):
		return "jpg"
	if content[:4] == b"RIFF" and content[8:12] == b"WEBP":
		return "webp"
	if content.startswith(b"GIF8"):
		return "gif"
	return "png"
