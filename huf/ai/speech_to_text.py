"""Speech to text (the spec's module path); the implementation lives in `huf.ai.media.speech_to_text`."""

from huf.ai.media.speech_to_text import resolve_stt_config, speech_to_text, transcribe_audio

__all__ = ["resolve_stt_config", "speech_to_text", "transcribe_audio"]
