from lite_test_app.events import DOC_EVENTS as _EVENTS  # "_": not a hook

app_name = "lite_test_app"
app_title = "Lite Test App"
app_publisher = "Huf"
app_description = "DocTypes and hooks used by the Frappe Lite conformance tests"
app_email = "hello@huf.ai"
app_license = "MIT"

after_install = "lite_test_app.install.after_install"

doc_events = {
	"*": {event: "lite_test_app.events.on_any_event" for event in _EVENTS},
	"Lite Test Record": {event: "lite_test_app.events.on_record_event" for event in _EVENTS},
	"Lite Test Order": {event: "lite_test_app.events.on_record_event" for event in _EVENTS},
}

has_permission = {
	"Lite Test Guarded": "lite_test_app.events.guarded_has_permission",
	"*": "lite_test_app.events.star_has_permission",
}

permission_query_conditions = {
	"Lite Test Guarded": "lite_test_app.events.guarded_query_conditions",
	"*": "lite_test_app.events.star_query_conditions",
}

scheduler_events = {
	"all": ["lite_test_app.events.tick"],
	"daily": ["lite_test_app.events.daily_job"],
}

website_route_rules = [{"from_route": "/lite-spa/<path:app_path>", "to_route": "lite-page"}]

page_renderer = ["lite_test_app.renderer.LiteStreamRenderer"]
