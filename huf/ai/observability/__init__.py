"""Observability, off by default: the prompt log (`huf_log_prompts`) and OpenTelemetry traces (`huf_otel_endpoint`).

| module | owns |
| --- | --- |
| `settings.py` | the site-config switches, read once per call from `frappe.conf` (a dict lookup) |
| `llm_calls.py` | `observe(provider, request)`: one LLM round trip, reported to the prompt log and as a span |
| `prompt_log.py` | the JSON-lines prompt log in the site's logs folder: secrets masked, scrubbing, truncation, rotation, tail and grep |
| `traces.py` | spans of agent runs, LLM calls, tool calls, flow runs and flow nodes (GenAI semantic conventions) |
| `otel.py` | the OpenTelemetry SDK and the OTLP/HTTP exporter, imported only when traces are configured |

The bottom layer of `huf.ai`: imports only Frappe and `huf.huf` rules, so every layer may report to it.
When both switches are off nothing is imported, opened or sent.
"""
