"""Knowledge benchmark: prints numbers, asserts nothing.

	.venv/bin/python benchmarks/knowledge.py                 # 10,000 chunks per backend, throw-away site
	.venv/bin/python benchmarks/knowledge.py --chunks 2000 --searches 100

Per backend (sqlite_fts, sqlite_vec, chroma in File mode): chunks indexed per second through the
backend interface (`add_chunks` in batches of 500; the vector backends include the embedding calls
to the scripted OpenAI-compatible server on 127.0.0.1 through the real LiteLLM), then search
latency p50/p90 at that size (vector searches include embedding the query).
"""

from __future__ import annotations

import argparse
import os
import random
import shutil
import sys
import tempfile
import time

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), ".."))
sys.path[:0] = [os.path.join(ROOT, "lite"), ROOT]

from benchmarks.agent_runtime import percentile  # noqa: E402
from benchmarks.run import SITE  # noqa: E402
from benchmarks.run import make_site as new_bench_site  # noqa: E402

PROVIDER = "Bench Embeddings"
DIMENSION = 256
SYLLABLES = "ka lo mi ne ru sa te vo zi pa do fe gu hi ja ko lu ma ni po".split()


def vocabulary(size: int = 5000, seed: int = 3) -> list[str]:
	"""Made-up words; the text draws them with a Zipf-like skew, like natural language."""
	rng = random.Random(seed)
	words: set[str] = set()
	while len(words) < size:
		words.add("".join(rng.choice(SYLLABLES) for _ in range(rng.randint(2, 4))))
	return sorted(words)


WORDS = vocabulary()
WEIGHTS = [1 / (rank + 1) for rank in range(len(WORDS))]


def make_site(sites_path: str, api_base: str) -> None:
	import frappe

	new_bench_site(sites_path)
	frappe.init(SITE, sites_path=sites_path, force=True)
	frappe.connect()
	frappe.get_doc(
		{"doctype": "AI Provider", "provider_name": PROVIDER, "api_key": "sk-bench", "api_base": api_base}
	).insert()
	frappe.db.commit()


def sentences(count: int, seed: int = 7) -> list[str]:
	rng = random.Random(seed)
	return [" ".join(rng.choices(WORDS, WEIGHTS, k=rng.randint(40, 80))) + "." for _ in range(count)]


def bench_backend(knowledge_type: str, texts: list[str], searches: int) -> dict:
	import frappe

	from huf.ai.knowledge.backends import Chunk, get_backend

	source = frappe._dict(
		name=f"bench {knowledge_type}",
		knowledge_type=knowledge_type,
		embedding_model="embed-model",
		embedding_provider=PROVIDER,
		vector_dimension=DIMENSION,
		chroma_mode="File",
	)
	backend = get_backend(source)
	backend.drop()
	chunks = [
		Chunk(text=t, knowledge_input=f"input-{i // 20}", position=i, tokens=60) for i, t in enumerate(texts)
	]
	started = time.perf_counter()
	for start in range(0, len(chunks), 500):
		backend.add_chunks(chunks[start : start + 500])
	index_seconds = time.perf_counter() - started
	rng = random.Random(11)
	timings = []
	for _ in range(searches):
		query = " ".join(rng.choice(WORDS[:1000]) for _ in range(3))  # words that occur in the text
		t0 = time.perf_counter()
		backend.search(query, top_k=5)
		timings.append((time.perf_counter() - t0) * 1000)
	embed_timings = []
	if knowledge_type != "sqlite_fts":
		from huf.ai.knowledge.embeddings import embed_query

		for _ in range(min(searches, 50)):
			t0 = time.perf_counter()
			embed_query(source, "one query")
			embed_timings.append((time.perf_counter() - t0) * 1000)
	stats = backend.stats()
	backend.drop()
	return {
		"backend": knowledge_type,
		"chunks": stats["chunks"],
		"chunks_per_s": len(chunks) / index_seconds,
		"p50_ms": percentile(timings, 0.5),
		"p90_ms": percentile(timings, 0.9),
		"size_mb": stats["size_bytes"] / 1024 / 1024,
		"embed_p50_ms": percentile(embed_timings, 0.5) if embed_timings else 0.0,
	}


def main() -> None:
	parser = argparse.ArgumentParser()
	parser.add_argument("--chunks", type=int, default=10_000)
	parser.add_argument("--searches", type=int, default=200)
	parser.add_argument("--backends", default="sqlite_fts,sqlite_vec,chroma")
	args = parser.parse_args()

	import frappe

	from huf.tests.support.llm_server import ScriptedLLM

	sites_path = tempfile.mkdtemp(prefix="huf-knowledge-bench-")
	try:
		with ScriptedLLM() as llm:
			llm.embedding_dimension = DIMENSION
			make_site(sites_path, llm.api_base)
			texts = sentences(args.chunks)
			print(
				f"{'backend':<12} {'chunks':>7} {'chunks/s':>10} {'search p50':>11} {'p90':>9} {'of which embed p50':>19}"
			)
			for knowledge_type in args.backends.split(","):
				row = bench_backend(knowledge_type, texts, args.searches)
				print(
					f"{row['backend']:<12} {row['chunks']:>7} {row['chunks_per_s']:>10.0f}"
					f" {row['p50_ms']:>9.2f}ms {row['p90_ms']:>7.2f}ms {row['embed_p50_ms']:>17.2f}ms"
				)
	finally:
		frappe.destroy()
		shutil.rmtree(sites_path, ignore_errors=True)


if __name__ == "__main__":
	main()
