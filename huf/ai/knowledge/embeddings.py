"""Embeddings for the vector backends, through the LiteLLM seam (`huf.ai.providers.litellm.embedding`)."""

from __future__ import annotations

from typing import Any

import frappe
from frappe import _
from frappe.utils import cint

BATCH_SIZE = 64


class EmbeddingDimensionError(frappe.ValidationError):
	"""The model's vectors do not have the source's Vector Dimension."""


def embed_texts(source: Any, texts: list[str], batch_size: int = BATCH_SIZE) -> list[list[float]]:
	"""Vectors of `texts` (in order) with the source's embedding model and provider, in batches."""
	from huf.ai.providers.litellm import ProviderConfig, embedding
	from huf.ai.providers.model_names import litellm_prefix_of

	model = (source.get("embedding_model") or "").strip()
	if not model:
		frappe.throw(_("Knowledge Source {0} has no Embedding Model.").format(frappe.bold(source.name)))
	provider = source.get("embedding_provider") or ProviderConfig(name=litellm_prefix_of(model) or "openai")
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
				"The embedding model {0} returns vectors of {1} dimensions, but Knowledge Source {2} has "
				"Vector Dimension {3}. Set Vector Dimension to {1} and rebuild the index."
			).format(model, found, frappe.bold(source.name), expected),
			EmbeddingDimensionError,
		)
