"""`generate_audio`: text to speech through `litellm.speech`, saved as a private File attached to the
conversation.

Model and voice, three tiers (the spec's `_resolve_tts_config`):
1. `model` passed to the call: that model, on the agent's main provider (or the AI Model's own
   provider when `model` names an AI Model record);
2. `agent.tts_model` (an AI Model): its model name, with the key of *its* provider, so the agent
   may talk on OpenAI and speak with ElevenLabs;
3. the main provider's default TTS model.
The voice is the call's `voice`, else `agent.tts_voice`, else the provider's default voice.
"""

from dataclasses import dataclass
from typing import Any

from frappe import _
from frappe.utils import flt

from huf.ai.media import common

DEFAULT_TTS_MODELS = {
	"openai": "tts-1",
	"azure": "tts-1",
	"gemini": "gemini-2.5-flash-preview-tts",
	"vertex_ai": "gemini-2.5-flash-preview-tts",
	"elevenlabs": "eleven_multilingual_v2",
	"minimax": "speech-02-hd",
}
DEFAULT_VOICES = {
	"openai": "alloy",
	"azure": "alloy",
	"gemini": "Kore",
	"vertex_ai": "Kore",
	"elevenlabs": "21m00Tcm4TlvDq8ikWAM",
	"minimax": "male-qn-qingse",
}
AUDIO_FORMATS = frozenset({"mp3", "opus", "aac", "flac", "wav", "pcm"})
MAX_INPUT_CHARS = 4096


@dataclass
class TTSConfig:
	provider: str | None
	model: str | None
	voice: str | None
	source: str  # "param", "agent", "default"


def resolve_tts_config(agent: Any, model: str | None = None, voice: str | None = None) -> TTSConfig:
	"""Pick the TTS provider, model and voice by the three tiers above."""
	main = common.main_target(agent)
	agent_voice = (agent.get("tts_voice") if agent else None) or None
	if model or (agent and agent.get("tts_model")):
		target = common.model_target(model or agent.tts_model, main)
		config = TTSConfig(target.provider, target.model, voice or agent_voice, "param" if model else "agent")
	else:
		prefix = common.prefix_of(main.provider)
		config = TTSConfig(main.provider, DEFAULT_TTS_MODELS.get(prefix), voice or agent_voice, "default")
	if not config.voice:
		config.voice = DEFAULT_VOICES.get(common.prefix_of(config.provider, config.model))
	return config


def generate_audio(
	input: str | None = None,  # noqa: A002 - the tool's parameter name
	voice: str | None = None,
	model: str | None = None,
	speed: float | None = None,
	response_format: str | None = "mp3",
	*,
	conversation: str | None = None,
	agent: str | None = None,
	**_ignored: Any,
) -> dict:
	"""Speak `input` and return the private File of the audio."""
	from huf.ai.providers.calls import speech

	text = (input or "").strip()
	if not text:
		return common.failure(_("Pass the text to speak in input."))
	if len(text) > MAX_INPUT_CHARS:
		return common.failure(
			_("The text is too long ({0} characters, at most {1}).").format(len(text), MAX_INPUT_CHARS)
		)
	audio_format = (response_format or "mp3").lower()
	if audio_format not in AUDIO_FORMATS:
		return common.failure(
			_("response_format must be one of {0}.").format(", ".join(sorted(AUDIO_FORMATS)))
		)
	if speed not in (None, ""):
		speed = flt(speed)
		if not 0.25 <= speed <= 4.0:
			return common.failure(_("speed must be between 0.25 and 4.0."))
	else:
		speed = None
	common.check_conversation_access(conversation)
	config = resolve_tts_config(common.resolve_agent(agent, conversation), model, voice)
	if not config.provider or not config.model:
		return common.failure(_("No speech model is configured: set TTS Model on the agent or pass model."))
	answer = speech(
		config.provider,
		config.model,
		text,
		voice=config.voice,
		speed=speed,
		response_format=audio_format,
	)
	if not answer.audio:
		return common.failure(_("The provider returned no audio."), model=answer.model)
	extension = audio_format if audio_format != "pcm" else "pcm"
	file_doc = common.save_output(answer.audio, f"generated-audio.{extension}", conversation)
	return {
		"success": True,
		"file_id": file_doc.name,
		"file_url": file_doc.file_url,
		"model": answer.model,
		"provider": answer.provider,
		"voice": config.voice,
		"format": audio_format,
		"size": len(answer.audio),
	}
