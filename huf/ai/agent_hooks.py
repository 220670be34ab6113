"""The Agent Trigger entry point named in hooks.py: the document-event handler (doc_events).

The triggers themselves live in `huf.ai.triggers` (doc events, webhooks, schedules, who a run acts as);
the webhook endpoint is `huf.api.triggers.handle_webhook`.
"""

from huf.ai.triggers.doc_events import run_hooked_agents

__all__ = ["run_hooked_agents"]
