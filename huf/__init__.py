"""Huf: build and run AI agents on Frappe."""

__version__ = "0.12.0"


def fire_app_event(app: str, event: str, payload=None) -> list[str]:
	"""Run the agents of the enabled App Event triggers of `app` + `event` with `payload` (a JSON value).

	For other apps' code (not a web endpoint): the runs are queued once the caller's transaction commits
	and act as each trigger's Run As, else its owner. Returns the names of the triggers that fire.
	"""
	from huf.ai.triggers.app_events import fire_app_event as fire

	return fire(app, event, payload)
