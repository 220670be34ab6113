"""Knowledge (RAG): sources and inputs, extraction, chunking, storage backends, retrieval, injection.

| module | owns |
| --- | --- |
| `backends/` | `sqlite_fts` (FTS5/BM25), `sqlite_vec` (vec0, cosine), `chroma` (File/Server) behind one interface |
| `extractors/` | an input's text: Text, File (area M's extractors), URL (through the SSRF-safe client) |
| `chunkers/` | LlamaIndex `SentenceSplitter` with the source's chunk size and overlap |
| `embeddings.py` | batched embeddings through the LiteLLM seam, dimension check |
| `indexer.py` | background indexing, one writer per source, atomic rebuild, delete hooks, daily maintenance |
| `pieces.py` | how an input was split (read from the index) or would be with other settings (nothing written) |
| `retriever.py` | `knowledge_search`: permission-checked multi-source search merged by normalised score |
| `context_builder.py` | Mandatory sources injected into the system prompt within token budgets |
| `tool.py` | the `knowledge_search` / `get_knowledge_sources` tools for agents with Optional sources |
| `access.py` | who may read sources and inputs: knowledge follows the agents that use it |

May import: `huf.ai.runtime` (its tool and knowledge seams) and the layers below it (media for
extraction, providers for embeddings, http for URLs), `huf.huf` rules. See docs/knowledge.md.
"""
