"""Huf: build and run AI agents on Frappe."""

__version__ = "0.12.0"


def fire_app_event(app: str, event: str, payload=None) -> list[str]:
	"""Run the agents of the enabled App Event triggers of `app` + `event` with `payload` (a JSON value),
	and start the Active flows whose App event trigger listens on them.

	For other apps' code (not a web endpoint): the runs are queued once the caller's transaction commits
	and act as each trigger's (each flow's) Run As, else its owner. Returns the names of the triggers
	that fire.
	"""
	import json

	from huf.ai.flows.app_events import fire_app_event_flows
	from huf.ai.triggers.app_events import fire_app_event as fire

	names = fire(app, event, payload)  # checks the names and that the payload is JSON
	fire_app_event_flows(
		app.strip(), event.strip(), json.loads(json.dumps({} if payload is None else payload))
	)
	return names
