"""The demo page of the agent stream (also served at /huf/stream by AgentStreamRenderer)."""

from huf.ai.agent_stream_renderer import get_demo_context

no_cache = 1


def get_context(context) -> None:
	context.update(get_demo_context())
