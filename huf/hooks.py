app_name = "huf"
app_title = "Huf"
app_publisher = "Huf"
app_description = "Build and run AI agents on Frappe"
app_email = "hello@huf.ai"
app_license = "MIT"
required_apps = []

after_install = "huf.install.after_install"
after_migrate = "huf.install.after_migrate"

# Row-level access: Huf Users and Viewers see only their own conversations, messages and runs.
permission_query_conditions = {
	"Agent": "huf.huf.record_access.agent_query_conditions",
	"Agent Conversation": "huf.huf.record_access.conversation_query_conditions",
	"Agent Message": "huf.huf.record_access.message_query_conditions",
	"Agent Run": "huf.huf.record_access.run_query_conditions",
}

has_permission = {
	"Agent": "huf.huf.record_access.agent_has_permission",
	"Agent Conversation": "huf.huf.record_access.conversation_has_permission",
	"Agent Message": "huf.huf.record_access.message_has_permission",
	"Agent Run": "huf.huf.record_access.run_has_permission",
}

# Huf's own standard tools; App Provided tools must be registered through this hook.
huf_tools = ["huf.huf.builtin_tools.get_builtin_tools"]

# POST /huf/stream/<agent_name>: Server-Sent Events of an agent run; GET /huf/stream: demo page.
page_renderer = ["huf.ai.agent_stream_renderer.AgentStreamRenderer"]

# Feature blocks below add their events with doc_events.setdefault(...) / scheduler_events.setdefault(...).
doc_events: dict = {}

scheduler_events: dict = {
	# Agent runtime: recover runs and locks left by a crashed process, restart stalled queues.
	"cron": {
		"* * * * *": ["huf.ai.runtime.recovery.recover_stale_runs"],
	},
}

# --- area K ---
# The dashboard (huf/www/huf.py) answers /huf and every /huf/<path> (client-side routes);
# /huf/stream[/<agent>] stays with the stream renderer of area J (werkzeug prefers the static parts).
website_route_rules = [
	{"from_route": "/huf/stream", "to_route": "huf/stream"},
	{"from_route": "/huf/stream/<path:agent_name>", "to_route": "huf/stream/agent"},
	{"from_route": "/huf/<path:app_path>", "to_route": "huf"},
]
# --- end area K ---

# --- area N ---
# MCP servers: the agents' MCP tools, and the hourly auto-sync of servers with Enable Auto Sync.
huf_tool_providers = [*globals().get("huf_tool_providers", []), "huf.ai.mcp.provider.mcp_tool_provider"]
scheduler_events.setdefault("hourly", []).append("huf.ai.mcp_client.auto_sync_mcp_server_tools")
# Agent MCP Server rows show their server's URL and number of enabled tools.
doc_events.setdefault("Agent", {}).setdefault("validate", []).append("huf.ai.mcp.sync.fill_agent_mcp_rows")
# --- end area N ---

# --- area O ---
# Knowledge: Mandatory sources injected into the system prompt, the knowledge tools for agents with
# Optional sources, (re)indexing when inputs or indexing settings change, clean-up on delete, daily upkeep.
huf_mandatory_knowledge = ["huf.ai.knowledge.context_builder.build_knowledge_context"]
huf_tool_providers = [*globals().get("huf_tool_providers", []), "huf.ai.knowledge.tool.knowledge_tool_provider"]
doc_events.setdefault("Knowledge Input", {}).update(
	{
		"on_update": "huf.ai.knowledge.indexer.on_input_update",
		"on_trash": "huf.ai.knowledge.indexer.on_input_trash",
	}
)
doc_events.setdefault("Knowledge Source", {}).update(
	{
		"on_update": "huf.ai.knowledge.indexer.on_source_update",
		"on_trash": "huf.ai.knowledge.indexer.on_source_trash",
	}
)
scheduler_events.setdefault("daily", []).append("huf.ai.knowledge.maintenance.daily_maintenance")
# --- end area O ---

# --- area L ---
# Tools of an agent's Agent Tool rows (the registry of huf/ai/tool_registry.py); MCP and knowledge add theirs.
huf_tool_providers = [*globals().get("huf_tool_providers", []), "huf.ai.tool_registry.agent_tool_provider"]
# --- end area L ---
