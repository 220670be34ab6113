"""Hook handlers of lite_test_app_two: they record into lite_test_app's call log."""

from lite_test_app.events import record


def on_any_event(doc, method: str, *args, **kwargs) -> None:
	record("app2:*", doc, method)


def on_record_event(doc, method: str, *args, **kwargs) -> None:
	record("app2:doctype", doc, method)


def on_grouped_event(doc, method: str, *args, **kwargs) -> None:
	record("app2:grouped", doc, method)
