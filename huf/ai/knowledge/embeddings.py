"""Embeddings for the vector backends, through the LiteLLM seam (`huf.ai.providers.calls.embedding`)."""

from __future__ import annotations

from typing import Any

import frappe
from frappe import _
from frappe.utils import cint

BATCH_SIZE = 64


class EmbeddingDimensionError(frappe.ValidationError):
	"""The model's vectors do not have the source's Vector Dimension, or their size cannot be learnt."""


PROBE_TEXT = "How long are the vectors of this embedding model?"
PROBE_TIMEOUT = 30.0


def model_and_provider(source: Any) -> tuple[str, Any]:
	"""The source's embedding model and its AI Provider (else the model's LiteLLM prefix, with its usual key)."""
	from huf.ai.providers.model_names import litellm_prefix_of
	from huf.ai.providers.types import ProviderConfig

	model = (source.get("embedding_model") or "").strip()
	if not model:
		frappe.throw(
			_("Knowledge Source {0} has no Embedding Model.").format(frappe.bold(source.name or _("new")))
		)
	return model, source.get("embedding_provider") or ProviderConfig(
		name=litellm_prefix_of(model) or "openai"
	)


def detect_dimension(source: Any, ask_first: bool | None = None) -> int:
	"""How long the vectors of the source's embedding model are: one embedding of a short text, or
	LiteLLM's model table. With an Embedding Provider (or `ask_first`) the model is asked first, the table
	being the fallback; without one the table is read first and the model asked only when it is not listed.
	"""
	from huf.ai.providers.calls import embedding, embedding_vector_size
	from huf.ai.providers.retry import RetryPolicy

	model, provider = model_and_provider(source)
	ask_first = bool(source.get("embedding_provider")) if ask_first is None else ask_first
	listed = None if ask_first else embedding_vector_size(provider, model)
	if listed:
		return listed
	try:
		# a form is waiting: one attempt with a short timeout, not the runs' retries
		vectors = embedding(
			provider, model, [PROBE_TEXT], timeout=PROBE_TIMEOUT, retry=RetryPolicy(attempts=1)
		).vectors
		if vectors and len(vectors[0]):
			return len(vectors[0])
		reason = _("it returned no vector")
	except Exception as exc:
		reason = (str(exc) or type(exc).__name__).strip()
	listed = embedding_vector_size(provider, model)
	if listed:
		return listed
	frappe.throw(
		_(
			"Huf could not learn the vector size of the embedding model {0}: {1}. Check the Embedding Model "
			"and Embedding Provider, then save again."
		).format(model, reason),
		EmbeddingDimensionError,
	)


def embed_texts(source: Any, texts: list[str], batch_size: int = BATCH_SIZE) -> list[list[float]]:
	"""Vectors of `texts` (in order) with the source's embedding model and provider, in batches."""
	from huf.ai.providers.calls import embedding

	model, provider = model_and_provider(source)
	dimension = cint(source.get("vector_dimension"))
	vectors: list[list[float]] = []
	for start in range(0, len(texts), batch_size):
		batch = [text or " " for text in texts[start : start + batch_size]]
		result = embedding(provider, model, batch)
		if len(result.vectors) != len(batch):
			frappe.throw(
				_("The embedding model {0} returned {1} vectors for {2} texts.").format(
					model, len(result.vectors), len(batch)
				)
			)
		for vector in result.vectors:
			check_dimension(source, model, len(vector), dimension)
		vectors.extend(result.vectors)
	return vectors


def embed_query(source: Any, text: str) -> list[float]:
	return embed_texts(source, [text])[0]


def check_dimension(source: Any, model: str, found: int, expected: int) -> None:
	if found != expected:
		frappe.throw(
			_(
				"The embedding model {0} returns vectors of {1} dimensions, but the index of Knowledge Source "
				"{2} is built for {3}. Rebuild the index: Rebuild asks the model for its vector size again "
				"and indexes every input with it."
			).format(model, found, frappe.bold(source.name), expected),
			EmbeddingDimensionError,
		)
