"""The SSE wire format of agent events: `data: {json}\\n\\n`, one frame per event.

The events, and the one schema they follow, are the agent loop's (`huf.ai.runtime.events`,
docs/runtime.md): a frame is exactly one event, nothing added or left out. A client joins the
`content` of the `delta` frames; `complete` carries the whole answer as `full_response`.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator

__all__ = ["encode_frame", "iter_frames"]


def encode_frame(event: dict) -> bytes:
	"""One SSE frame: `data: {json}` and a blank line (the JSON stays on one line)."""
	return b"data: " + json.dumps(event, default=str, separators=(",", ":")).encode() + b"\n\n"


def iter_frames(chunks: Iterable[bytes]) -> Iterator[dict]:
	"""Decode the events of an SSE byte stream (the client's side: tests, benchmarks, scripts)."""
	buffer = b""
	for chunk in chunks:
		buffer += chunk
		while True:
			end = _frame_end(buffer)
			if end is None:
				break
			block, buffer = buffer[: end[0]], buffer[end[1] :]
			data = [
				line[5:].lstrip(b" ")
				for line in block.replace(b"\r\n", b"\n").split(b"\n")
				if line.startswith(b"data:")
			]
			if data:
				yield json.loads(b"\n".join(data))


def _frame_end(buffer: bytes) -> tuple[int, int] | None:
	ends = [(at, at + len(sep)) for sep in (b"\n\n", b"\r\n\r\n") if (at := buffer.find(sep)) != -1]
	return min(ends) if ends else None
