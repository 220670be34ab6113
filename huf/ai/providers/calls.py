"""The calls the rest of Huf makes to a model provider: import them from here, the types they take
and return from `huf.ai.providers.types`, the errors from `huf.ai.providers`.

| call | does |
| --- | --- |
| `completion`, `embedding`, `embedding_vector_size` | chat completions (streamed or not) and embeddings |
| `get_provider_config` | an AI Provider's `ProviderConfig` (decrypted key, route settings, limits) |
| `apply_prompt_caching`, `supports_prompt_caching` | prompt-cache markers where the model needs them |
| `image_generation`, `speech`, `transcription`, `ocr`, `supports_ocr` | the media calls |
| `warm_up_client` | load the provider library ahead of the first run (`huf.ai.runtime.warm_up`) |

They are implemented with LiteLLM in `huf.ai.providers.litellm` and `huf.ai.providers.media_calls`,
which nothing outside `huf.ai.providers` imports (import-linter contract `litellm-behind-calls`).
Importing this module does not import LiteLLM: the calls import it when they run.
"""

from huf.ai.providers.litellm import (
	apply_prompt_caching,
	completion,
	embedding,
	embedding_vector_size,
	get_provider_config,
	supports_prompt_caching,
	warm_up_client,
)
from huf.ai.providers.media_calls import image_generation, ocr, speech, supports_ocr, transcription

__all__ = [
	"apply_prompt_caching",
	"completion",
	"embedding",
	"embedding_vector_size",
	"get_provider_config",
	"image_generation",
	"ocr",
	"speech",
	"supports_ocr",
	"supports_prompt_caching",
	"transcription",
	"warm_up_client",
]
