app_name = "huf"
app_title = "Huf"
app_publisher = "Huf"
app_description = "Build and run AI agents on Frappe"
app_email = "hello@huf.ai"
app_license = "MIT"
required_apps = []

# Saving a Huf DocType in developer mode rewrites the typed block of its controller (frappe.types.exporter).
export_python_type_annotations = True

# Desk: the Huf tile on /apps (and the app switcher) opens the dashboard at /huf.
add_to_apps_screen = [
	{
		"name": "huf",
		"logo": "/assets/huf/images/huf-logo.svg",
		"title": "Huf",
		"route": "/huf",
		"has_permission": "huf.huf.desk.has_app_permission",
	}
]

after_install = "huf.install.after_install"
# Another app installed: sync its huf_tools and apply its huf/ seed folder; uninstalled: drop its tools.
after_app_install = "huf.install.after_app_install"
after_app_uninstall = "huf.install.after_app_uninstall"

# Every request: body size (huf_max_request_size) and JSON nesting limits (huf/request_limits.py),
# text that is not valid Unicode (huf/request_unicode.py).
before_request = [
	"huf.request_limits.check_request",
	"huf.request_unicode.check_request_text",
	"huf.ai.runtime.warm_up.start_warm_up",  # once per process: import the AI libraries in the background
]
# After Frappe authenticated the request (API keys too), before it runs: a missing argument of a Huf
# function is named with 417 instead of a TypeError's 500 (huf/request_errors.py).
auth_hooks = ["huf.request_errors.check_arguments"]
before_job = ["huf.ai.runtime.warm_up.start_warm_up"]
# /private/files/ answers: never sniffed, HTML/SVG/XML/JavaScript sent as downloads (huf/huf/file_safety.py).
after_request = [
	"huf.huf.file_safety.secure_file_response",
	# error answers: the traceback only to System Managers, its message to everyone (huf/request_errors.py)
	"huf.request_errors.strip_tracebacks",
	"huf.request_limits.add_retry_after",  # 429s of Huf's rate limits
]
after_migrate = "huf.install.after_migrate"

# State Huf keeps in the cache survives a full cache clear (`bench clear-cache`, and what Frappe 15 does
# when some documents are saved): rate-limit windows, replay and dedupe marks, OAuth states, run locks and
# liveness, the scheduler's tick. Derived caches (huf:data_table_doctypes, huf:doc_event_*) are cleared.
persistent_cache_keys = [
	"huf:scheduler_tick",
	"huf:run_rate:*",
	"huf:provider_rate:*",
	"huf:webhook_rate:*",
	"huf:channel_seen:*",
	"huf:trigger_event:*",
	"huf:oauth_state:*",
	"huf:run_lock:*",
	"huf:run_alive:*",
	"huf:run_claim:*",
	"huf:drain_pending:*",
]

# Frappe's frappe.client.get_count counts without permission checks; Huf's counts what the user may read.
override_whitelisted_methods = {
	"frappe.client.get_count": "huf.api.client.get_count",
	# the inbound channels (huf.api.channels) also answer at upstream Huf's paths, which Telegram and
	# ElevenLabs webhooks may be configured with
	"huf.ai.tools.telegram_webhook.handle_update": "huf.api.channels.telegram_update",
	"huf.ai.providers.elevenlabs_convai_api.health": "huf.api.channels.elevenlabs_health",
	"huf.ai.providers.elevenlabs_convai_api.get_signed_url": "huf.api.channels.elevenlabs_signed_url",
	"huf.ai.providers.elevenlabs_convai_api.get_agent_id": "huf.api.channels.elevenlabs_agent_id",
	"huf.ai.providers.elevenlabs_convai_api.handle_elevenlabs_webhook": "huf.api.channels.elevenlabs_webhook",
	# URLs Huf gave to other systems before its endpoints moved to huf.api (docs/api.md): trigger
	# webhooks, Slack's request URL, the OAuth redirect URI registered with Google
	"huf.ai.agent_hooks.handle_webhook": "huf.api.triggers.handle_webhook",
	"huf.ai.integrations.channels.slack.handle_event": "huf.api.channels.slack_event",
	"huf.ai.integrations.oauth.callback": "huf.api.integrations.oauth_callback",
	# upstream's endpoints for its scheduler jobs: System Managers only (the jobs themselves are not endpoints)
	"huf.ai.agent_scheduler.run_scheduled_agents": "huf.api.triggers.run_scheduled_agents",
	"huf.ai.mcp_client.auto_sync_mcp_server_tools": "huf.api.mcp.auto_sync_mcp_server_tools",
}

# Row-level access: Huf Users and Viewers see only their own conversations, messages and runs.
permission_query_conditions = {
	"Agent": "huf.huf.record_access.agent_query_conditions",
	# Who may use an agent: its rows only for agents open to the user (child lists through `parent`).
	"Agent User": "huf.huf.record_access.agent_rows_query_conditions",
	"Agent Role": "huf.huf.record_access.agent_rows_query_conditions",
	"Agent Conversation": "huf.huf.record_access.conversation_query_conditions",
	"Agent Message": "huf.huf.record_access.message_query_conditions",
	"Agent Run": "huf.huf.record_access.run_query_conditions",
	# Knowledge follows the agents that use it (huf/ai/knowledge/access.py).
	"Knowledge Source": "huf.ai.knowledge.access.source_query_conditions",
	"Knowledge Input": "huf.ai.knowledge.access.input_query_conditions",
	# Flow Runs: their user, pending approvers (document only), Huf Managers (huf/huf/flow_access.py).
	"Flow Run": "huf.huf.flow_access.flow_run_query_conditions",
	# Tool approval requests and grants: holders of tools.approve (huf/huf/tool_approval_access.py).
	"Agent Tool Approval": "huf.huf.tool_approval_access.approval_query_conditions",
	# Prompt templates: someone else's Private prompt is hidden (huf/huf/prompt_versions.py).
	"Agent Prompt": "huf.huf.prompt_versions.prompt_query_conditions",
	# Huf Users see site-wide budgets and their own (huf/huf/budget_access.py).
	"Huf Budget": "huf.huf.budget_access.budget_query_conditions",
	"Agent Summary Prompt": "huf.huf.prompt_versions.prompt_query_conditions",
	# Evals: only those of agents open to the user (huf/huf/eval_access.py).
	"Agent Eval Case": "huf.huf.eval_access.eval_query_conditions",
	"Agent Eval Run": "huf.huf.eval_access.eval_query_conditions",
	"Agent Eval Result": "huf.huf.eval_access.eval_query_conditions",
	# Tools are listed to holders of tools.use (huf/huf/capability_access.py).
	"Agent Tool Function": "huf.huf.capability_access.read_query_conditions",
	# Data table records ("HF <table>"): data.records.view_own/view_all (huf/huf/data_tables/access.py).
	"*": "huf.huf.data_tables.access.query_conditions",
}

# Document checks: record rules, capabilities (reads, creates, writes and deletes need the capability the
# catalogue in huf/huf/capability_access.py names, beside DocPerms) and data-table rights, all in one hook so that
# Frappe 15 and 16 deny the same (huf/huf/permission_hooks.py has the checks per DocType and why).
has_permission = {"*": "huf.huf.permission_hooks.has_permission"}

# Huf's own standard tools; App Provided tools must be registered through this hook.
huf_tools = [
	"huf.huf.builtin_tools.get_builtin_tools",
	"huf.ai.integrations.services.get_integration_tools",
]

# POST /huf/stream/<agent_name>: Server-Sent Events of an agent run; GET /huf/stream: demo page.
# GET /huf/events: the signed-in user's live Huf events (huf.ai.live_stream).
page_renderer = ["huf.ai.agent_stream_renderer.AgentStreamRenderer", "huf.ai.live_stream.LiveEventsRenderer"]

# Tools offered to agents: each provider returns the tools an agent is entitled to.
huf_tool_providers = [
	"huf.ai.knowledge.tool.knowledge_tool_provider",  # knowledge_search / get_knowledge_sources
	"huf.ai.tools.registry.agent_tool_provider",  # the agent's Agent Tool rows and built-ins
	"huf.ai.mcp.provider.mcp_tool_provider",  # tools of the agent's MCP servers
]

# Mandatory knowledge sources are searched with the prompt and injected into the system prompt.
huf_mandatory_knowledge = ["huf.ai.knowledge.context_builder.build_knowledge_context"]

# A run one of these answers (returns a huf.ai.runtime.agent.RunAnswer) skips the model loop:
# a multi-run agent answers with its plan (huf/ai/orchestration/planner.py).
huf_run_handlers = ["huf.ai.orchestration.planner.plan_run"]

doc_events = {
	# Agent Triggers of type Doc Event and flows starting with trigger.doc-event (one cached lookup
	# each per event; Huf's own log DocTypes are skipped).
	"*": {
		# The trust boundary (huf/huf/engine_owned.py): what only the engine writes, whose a record is.
		# Links Frappe 15 leaves unchecked are checked there too (huf/frappe_compat.py).
		"before_validate": ["huf.huf.engine_owned.check_write", "huf.frappe_compat.validate_fetched_links"],
		"after_insert": ["huf.ai.agent_hooks.run_hooked_agents", "huf.ai.flows.starts.run_hooked_flows"],
		"validate": ["huf.ai.agent_hooks.run_hooked_agents", "huf.ai.flows.starts.run_hooked_flows"],
		"before_save": ["huf.ai.agent_hooks.run_hooked_agents", "huf.ai.flows.starts.run_hooked_flows"],
		"on_update": ["huf.ai.agent_hooks.run_hooked_agents", "huf.ai.flows.starts.run_hooked_flows"],
		"on_submit": ["huf.ai.agent_hooks.run_hooked_agents", "huf.ai.flows.starts.run_hooked_flows"],
		"on_cancel": ["huf.ai.agent_hooks.run_hooked_agents", "huf.ai.flows.starts.run_hooked_flows"],
		"on_trash": ["huf.ai.agent_hooks.run_hooked_agents", "huf.ai.flows.starts.run_hooked_flows"],
		"on_change": ["huf.ai.agent_hooks.run_hooked_agents", "huf.ai.flows.starts.run_hooked_flows"],
		"on_update_after_submit": [
			"huf.ai.agent_hooks.run_hooked_agents",
			"huf.ai.flows.starts.run_hooked_flows",
		],
	},
	# Agent MCP Server rows show their server's URL and number of enabled tools.
	"Agent": {"validate": ["huf.ai.mcp.sync.fill_agent_mcp_rows"]},
	# (Re)index when inputs or indexing settings change; remove chunks and index files on delete.
	"Knowledge Input": {
		"on_update": "huf.ai.knowledge.indexer.on_input_update",
		"on_trash": "huf.ai.knowledge.indexer.on_input_trash",
	},
	"Knowledge Source": {
		"on_update": "huf.ai.knowledge.indexer.on_source_update",
		"on_trash": "huf.ai.knowledge.indexer.on_source_trash",
	},
	# Only System Managers store files a browser would run: HTML, SVG, XML, JavaScript (huf/huf/file_safety.py).
	"File": {"validate": "huf.huf.file_safety.check_file"},
}

scheduler_events = {
	# Recover runs and locks left by a crashed process, restart stalled queues.
	"cron": {
		"* * * * *": [
			"huf.ai.runtime.recovery.recover_stale_runs",
			"huf.ai.agent_scheduler.run_scheduled_agents",
			"huf.ai.flow_engine.recover_flow_runs",  # flow runs whose worker stopped
			"huf.ai.flows.starts.run_scheduled_flows",  # flows starting with trigger.schedule
			"huf.ai.flows.approvals.expire_flow_approvals",  # human.approval past timeout_minutes
			"huf.ai.runtime.approval_decisions.expire_tool_approvals",  # tool approvals past their deadline
			"huf.ai.runtime.client_answers.expire_client_calls",  # client-side tool calls nobody answered
			"huf.ai.orchestration.scheduler.process_orchestrations",  # steps of multi-run plans
			"huf.api.health_checks.record_scheduler_tick",  # huf.api.health: the scheduler is alive
		],
	},
	# Auto-sync of MCP servers with Enable Auto Sync (each at its own interval).
	"hourly": ["huf.ai.mcp_client.auto_sync_mcp_server_tools"],
	# Optimise knowledge indexes, remove orphaned index files.
	"daily": ["huf.ai.knowledge.maintenance.daily_maintenance"],
}

# The dashboard (huf/www/huf.py) answers /huf and every /huf/<path> (client-side routes);
# /huf/stream[/<agent>] stays with the stream renderer (werkzeug prefers the static parts).
website_route_rules = [
	{"from_route": "/huf/stream", "to_route": "huf/stream"},
	{"from_route": "/huf/stream/<path:agent_name>", "to_route": "huf/stream/agent"},  # also /huf/stream/ping
	{"from_route": "/huf/events", "to_route": "huf/events"},  # huf.ai.live_stream
	# the documentation pages rendered from docs/*.md (huf/www/huf_docs.py)
	{"from_route": "/huf/docs", "to_route": "huf_docs"},
	{"from_route": "/huf/docs/<path:page>", "to_route": "huf_docs"},
	{"from_route": "/huf/<path:app_path>", "to_route": "huf"},
]
