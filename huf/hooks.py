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
