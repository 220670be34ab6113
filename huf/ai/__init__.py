"""Huf's AI: agents, their runs, conversations, tools, knowledge, MCP, media and triggers.

The top level holds only the spec's public modules, thin entry points that check access and
delegate: `agent_integration` (run_agent_sync), `agent_chat`, `agent_stream_renderer` (/huf/stream),
`agent_hooks` and `agent_scheduler` (hooks.py's trigger entry points), `mcp_client`, `sdk_tools`,
`tool_registry`, `http_handler`, the `flow_*` modules, and the re-exporting `conversation_manager`, `cost_calculator`,
`speech_to_text`, `run`, `tool_functions`, `tool_serializer`, `ocr_engine` (upstream's module paths).
Huf's own endpoints are in `huf.api` (docs/api.md), which imports this package, never the reverse.
Everything else lives in a package, one layer each; a layer imports only the layers below it (checked
by `make lint`, pyproject.toml's import-linter contracts):

	entry modules
	triggers/ | flows/             what starts a run without a person typing; graph workflows
	tools/ | knowledge/ | mcp/     tool and knowledge providers, plugged into the runtime's seams
	runtime/                       the loop, queue, locks, recovery, events
	conversation/                  messages, history, context strategies, memory
	media/                         extraction, OCR, images, speech
	providers/ | http/             LiteLLM, pricing; the SSRF-safe HTTP client

All of them may use the record rules in `huf.huf` (access, validators, schemas, safe expressions),
never a DocType controller. Each package's tests live in its `tests/` folder. See docs/architecture.md.
"""
