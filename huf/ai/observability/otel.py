"""The OpenTelemetry SDK behind `traces`: one tracer provider per site and endpoint, exporting OTLP over HTTP
(protobuf) in batches. Imported only when `huf_otel_endpoint` is set."""

import threading
from typing import Any

import frappe
from opentelemetry import trace
from opentelemetry.exporter.otlp.proto.http.trace_exporter import OTLPSpanExporter
from opentelemetry.sdk.resources import Resource
from opentelemetry.sdk.trace import TracerProvider
from opentelemetry.sdk.trace.export import BatchSpanProcessor

from huf.ai.observability import settings

TRACES_PATH = "/v1/traces"
DEFAULT_TIMEOUT = 3.0  # seconds per export, retries included: a collector that is down delays a run's end by about this much
_providers: dict[tuple, TracerProvider] = {}
_lock = threading.Lock()


def provider(endpoint: str) -> TracerProvider:
	"""The site's tracer provider for `endpoint` (made once per process, site, endpoint and headers)."""
	headers = headers_of(settings.conf("huf_otel_headers"))
	service = str(settings.conf("huf_otel_service_name", "huf"))
	site = getattr(frappe.local, "site", None) or ""
	timeout = _seconds(settings.conf("huf_otel_timeout", DEFAULT_TIMEOUT))
	key = (site, endpoint, tuple(sorted(headers.items())), service, timeout)
	with _lock:
		found = _providers.get(key)
		if found is None:
			resource = Resource.create({"service.name": service, "huf.site": site})
			found = TracerProvider(resource=resource)
			exporter = OTLPSpanExporter(
				endpoint=traces_url(endpoint), headers=headers or None, timeout=timeout
			)
			found.add_span_processor(BatchSpanProcessor(exporter))
			_providers[key] = found
	return found


def start(provider: TracerProvider, name: str, attributes: dict, parent: Any, client: bool) -> Any:
	"""Start an OTel span under `parent` (an OTel span, or None: the current OpenTelemetry context)."""
	context = trace.set_span_in_context(parent) if parent is not None else None
	kind = trace.SpanKind.CLIENT if client else trace.SpanKind.INTERNAL
	return provider.get_tracer("huf").start_span(name, context=context, kind=kind, attributes=attributes)


def flush(provider: TracerProvider) -> None:
	"""Send the finished spans now (a run or flow run ended); a collector that is down is not the run's failure."""
	try:
		provider.force_flush()
	except Exception:
		pass


def traces_url(endpoint: str) -> str:
	"""A collector's base URL gets OTLP's `/v1/traces`; a full traces URL is kept."""
	endpoint = endpoint.rstrip("/")
	return endpoint if endpoint.endswith(TRACES_PATH) else endpoint + TRACES_PATH


def headers_of(value: Any) -> dict[str, str]:
	"""`huf_otel_headers`: a dict, or "key=value,key2=value2" as OTEL_EXPORTER_OTLP_HEADERS."""
	if isinstance(value, dict):
		return {str(k): str(v) for k, v in value.items()}
	headers = {}
	for part in str(value or "").split(","):
		key, sep, item = part.partition("=")
		if sep and key.strip():
			headers[key.strip()] = item.strip()
	return headers


def _seconds(value: Any) -> float:
	try:
		return max(0.1, float(value))
	except (TypeError, ValueError):
		return DEFAULT_TIMEOUT
