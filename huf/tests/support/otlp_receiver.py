"""An OpenTelemetry collector stand-in: an OTLP/HTTP traces endpoint on 127.0.0.1 that records the spans.

	with OTLPReceiver() as otlp:
		set_site_config("huf_otel_endpoint", otlp.url)
		... run something ...
		spans = otlp.wait_for(lambda spans: any(s["name"] == "invoke_agent X" for s in spans))

Each span is {"name", "trace_id", "span_id", "parent_id", "kind", "status", "status_message",
"attributes", "resource"} (ids in hex, parent_id "" for a root); protobuf bodies are parsed with
opentelemetry-proto, gzip-compressed ones unpacked. `requests` keeps each export's path and headers.
"""

from __future__ import annotations

import gzip
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any


class OTLPReceiver:
	def __init__(self):
		self.spans: list[dict] = []
		self.requests: list[dict] = []
		self._lock = threading.Lock()
		self.server = ThreadingHTTPServer(("127.0.0.1", 0), _handler(self))
		self.server.daemon_threads = True
		self.url = f"http://127.0.0.1:{self.server.server_port}"
		threading.Thread(target=self.server.serve_forever, daemon=True).start()

	def __enter__(self) -> OTLPReceiver:
		return self

	def __exit__(self, *exc) -> None:
		self.close()

	def close(self) -> None:
		self.server.shutdown()
		self.server.server_close()

	def received(self) -> list[dict]:
		with self._lock:
			return list(self.spans)

	def wait_for(self, check, timeout: float = 30) -> list[dict]:
		"""The spans received once `check(spans)` is true; AssertionError naming what came when it never is."""
		deadline = time.monotonic() + timeout
		while True:
			spans = self.received()
			if check(spans):
				return spans
			if time.monotonic() > deadline:
				names = [span["name"] for span in spans]
				raise AssertionError(
					f"the expected spans did not arrive within {timeout} s; received: {names}"
				)
			time.sleep(0.05)

	def record(self, path: str, headers: dict, body: bytes) -> None:
		spans = parse_spans(body)
		with self._lock:
			self.requests.append({"path": path, "headers": headers})
			self.spans.extend(spans)


def parse_spans(body: bytes) -> list[dict]:
	"""The spans of an OTLP ExportTraceServiceRequest (protobuf)."""
	from opentelemetry.proto.collector.trace.v1.trace_service_pb2 import ExportTraceServiceRequest

	request = ExportTraceServiceRequest()
	request.ParseFromString(body)
	spans = []
	for resource_spans in request.resource_spans:
		resource = _attributes(resource_spans.resource.attributes)
		for scope_spans in resource_spans.scope_spans:
			for span in scope_spans.spans:
				spans.append(
					{
						"name": span.name,
						"trace_id": span.trace_id.hex(),
						"span_id": span.span_id.hex(),
						"parent_id": span.parent_span_id.hex(),
						"kind": span.kind,
						"status": span.status.code,
						"status_message": span.status.message,
						"attributes": _attributes(span.attributes),
						"resource": resource,
					}
				)
	return spans


def _attributes(items) -> dict:
	return {item.key: _value(item.value) for item in items}


def _value(value) -> Any:
	which = value.WhichOneof("value")
	if which == "array_value":
		return [_value(item) for item in value.array_value.values]
	return getattr(value, which) if which else None


def _handler(receiver: OTLPReceiver) -> type[BaseHTTPRequestHandler]:
	class Handler(BaseHTTPRequestHandler):
		def do_POST(self):
			body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
			if (self.headers.get("Content-Encoding") or "").lower() == "gzip":
				body = gzip.decompress(body)
			receiver.record(self.path, {k.lower(): v for k, v in self.headers.items()}, body)
			self.send_response(200)
			self.send_header("Content-Type", "application/x-protobuf")
			self.send_header("Content-Length", "0")
			self.end_headers()

		def log_message(self, *args):
			pass

	return Handler
