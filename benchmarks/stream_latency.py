"""SSE stream latency: how long a delta takes from the LLM server's socket to the SSE client.

	.venv/bin/python benchmarks/stream_latency.py                 # 20 streams x 40 deltas
	.venv/bin/python benchmarks/stream_latency.py --streams 50 --deltas 100 --gap 0.002

A throw-away site serves `POST /huf/stream/<agent>` (`frappe_lite.server.make_server`, a threaded werkzeug
server on 127.0.0.1). The agent's provider is the scripted OpenAI-compatible server
(huf/tests/support/llm_server.py) reached by the real LiteLLM; it writes one delta every `--gap`
seconds and records when each was sent. The client (httpx, same process, same clock) records when
each delta frame arrives. Per delta: arrival minus send, i.e. LiteLLM's parsing, the agent loop,
the renderer, werkzeug and the loopback socket. Prints numbers, asserts nothing but correctness.
"""

from __future__ import annotations

import argparse
import logging
import os
import shutil
import statistics
import sys
import tempfile
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

SITE = "stream-bench.localhost"
AGENT = "Stream Bench Agent"


def make_site(sites_path: str, api_base: str) -> str:
	"""A site with an agent on the scripted server; returns an Authorization header value."""
	import frappe
	from frappe.core.doctype.user.user import generate_keys

	from benchmarks.agent_runtime import make_site as make_agent_site

	make_agent_site(sites_path, api_base, SITE, agents=(AGENT,), instructions="Be brief.")
	secret = generate_keys("Administrator")["api_secret"]
	key = frappe.db.get_value("User", "Administrator", "api_key")
	frappe.db.commit()
	frappe.destroy()
	return f"token {key}:{secret}"


def run(streams: int, deltas: int, gap: float) -> None:
	import frappe.app
	import httpx
	from frappe_lite.server import make_server

	from benchmarks.agent_runtime import percentile
	from huf.ai.runtime.events import validate_event
	from huf.ai.runtime.sse import iter_frames
	from huf.tests.support.llm_server import Reply, ScriptedLLM

	sites_path = tempfile.mkdtemp(prefix="huf-stream-bench-")
	os.environ["HUF_SITES_PATH"] = sites_path
	llm = ScriptedLLM().__enter__()
	try:
		token = make_site(sites_path, llm.api_base)
		frappe.app._sites_path = sites_path
		server = make_server(SITE)
		threading.Thread(target=server.serve_forever, daemon=True).start()
		url = f"http://127.0.0.1:{server.server_port}/huf/stream/{AGENT}"
		pieces = [f"w{i:03d} " for i in range(deltas)]
		latencies: list[float] = []
		first_frame: list[float] = []
		after_last: list[float] = []
		with httpx.Client(timeout=60) as client:
			for n in range(streams + 1):  # the first stream warms up (imports LiteLLM) and is not counted
				llm.reset()
				llm.queue(Reply(content="".join(pieces), chunk_size=len(pieces[0]), delay=gap))
				received: list[tuple[float, str]] = []
				started = time.perf_counter()
				first = None
				with client.stream(
					"POST", url, json={"prompt": f"bench {n}"}, headers={"Authorization": token}
				) as response:
					assert response.status_code == 200, response.read()
					for event in iter_frames(response.iter_raw()):
						at = time.perf_counter()
						first = first or at
						validate_event(event)
						if event["type"] == "delta":
							received.append((at, event["content"]))
						elif event["type"] == "error":
							raise SystemExit(f"stream failed: {event['content']}")
					done = time.perf_counter()
				sent = list(llm.stream_sent_at)
				assert [text for _at, text in received] == pieces, "deltas were merged or lost"
				assert len(sent) == len(received), (len(sent), len(received))
				if n:
					latencies += [(got - out) * 1000 for (got, _t), out in zip(received, sent, strict=True)]
					first_frame.append((first - started) * 1000)
					after_last.append((done - sent[-1]) * 1000)
		server.shutdown()
	finally:
		llm.close()
		shutil.rmtree(sites_path, ignore_errors=True)

	print(f"streams x deltas:              {streams} x {deltas} (one every {gap * 1000:.1f} ms)")
	print(
		f"delta, LLM server -> client:   median {statistics.median(latencies):6.2f} ms   "
		f"p90 {percentile(latencies, 0.9):6.2f} ms   p99 {percentile(latencies, 0.99):6.2f} ms   "
		f"max {max(latencies):6.2f} ms"
	)
	print(f"POST -> first frame:           median {statistics.median(first_frame):6.2f} ms")
	print(
		f"last delta sent -> stream end: median {statistics.median(after_last):6.2f} ms (complete frame, run saved)"
	)


def main() -> None:
	parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
	parser.add_argument("--streams", type=int, default=20)
	parser.add_argument("--deltas", type=int, default=40)
	parser.add_argument("--gap", type=float, default=0.005, help="seconds between deltas at the LLM server")
	args = parser.parse_args()
	os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")
	logging.getLogger("werkzeug").setLevel(logging.WARNING)
	run(args.streams, args.deltas, args.gap)


if __name__ == "__main__":
	main()
