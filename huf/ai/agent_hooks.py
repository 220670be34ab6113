"""The Agent Trigger entry point named in hooks.py: the document-event handler (doc_events), and the
spec's other names of this module handed on: the Doc Event triggers by DocType (`get_doc_event_agents`,
cached until `clear_doc_event_agents_cache`) and one trigger's run for a document (`run_agent_for_doc`,
a background job, no endpoint).

The triggers themselves live in `huf.ai.triggers` (doc events, webhooks, schedules, who a run acts as);
the webhook endpoint is `huf.api.triggers.handle_webhook`.
"""

from huf.ai.triggers.doc_events import (
	clear_doc_event_agents_cache,
	get_doc_event_agents,
	run_agent_for_doc,
	run_hooked_agents,
)

__all__ = ["clear_doc_event_agents_cache", "get_doc_event_agents", "run_agent_for_doc", "run_hooked_agents"]
