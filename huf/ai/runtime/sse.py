"""The SSE wire format of agent events: `id: <n>\\ndata: {json}\\n\\n`, one frame per event.

The events, and the one schema they follow, are the agent loop's (`huf.ai.runtime.events`,
docs/runtime.md): a frame is exactly one event, nothing added or left out. A client joins the
`content` of the `delta` frames; `complete` carries the whole answer as `full_response`. The `id` is
the event's number in its run (`huf.ai.runtime.event_log`): a client that lost the connection sends
the last one it got as `Last-Event-ID` to read on from there.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator

__all__ = ["encode_frame", "iter_frames", "iter_numbered_frames"]


def encode_frame(event: dict, event_id: int | None = None) -> bytes:
	"""One SSE frame: `id: <event_id>` (when given), `data: {json}` and a blank line (the JSON stays on one line)."""
	data = b"data: " + json.dumps(event, default=str, separators=(",", ":")).encode() + b"\n\n"
	return data if event_id is None else b"id: %d\n" % event_id + data


def iter_frames(chunks: Iterable[bytes]) -> Iterator[dict]:
	"""Decode the events of an SSE byte stream (the client's side: tests, benchmarks, scripts)."""
	for _event_id, event in iter_numbered_frames(chunks):
		yield event


def iter_numbered_frames(chunks: Iterable[bytes]) -> Iterator[tuple[int | None, dict]]:
	"""`iter_frames` with the `id` of each frame (None for a frame without one)."""
	buffer = b""
	for chunk in chunks:
		buffer += chunk
		while True:
			end = _frame_end(buffer)
			if end is None:
				break
			block, buffer = buffer[: end[0]], buffer[end[1] :]
			lines = block.replace(b"\r\n", b"\n").split(b"\n")
			data = [line[5:].lstrip(b" ") for line in lines if line.startswith(b"data:")]
			ids = [line[3:].strip() for line in lines if line.startswith(b"id:")]
			if data:
				event_id = int(ids[-1]) if ids and ids[-1].isdigit() else None
				yield event_id, json.loads(b"\n".join(data))


def _frame_end(buffer: bytes) -> tuple[int, int] | None:
	ends = [(at, at + len(sep)) for sep in (b"\n\n", b"\r\n\r\n") if (at := buffer.find(sep)) != -1]
	return min(ends) if ends else None
