"""The scheduler entry point named in hooks.py: queue the due runs of Schedule triggers (`huf.ai.triggers.schedule`)."""

from huf.ai.triggers.schedule import run_scheduled_agents

__all__ = ["run_scheduled_agents"]
