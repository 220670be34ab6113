from lite_test_app.events import DOC_EVENTS as _EVENTS  # "_": not a hook

app_name = "lite_test_app_two"
app_title = "Lite Test App Two"
app_publisher = "Huf"
app_description = "A second app whose hooks merge with lite_test_app's in the conformance tests"
app_email = "hello@huf.ai"
app_license = "MIT"

required_apps = ["lite_test_app"]

doc_events = {
	"*": {event: "lite_test_app_two.events.on_any_event" for event in _EVENTS},
	"Lite Test Record": {event: "lite_test_app_two.events.on_record_event" for event in _EVENTS},
	"Lite Test Order": {event: "lite_test_app_two.events.on_record_event" for event in _EVENTS},
	# a tuple of DocTypes shares one set of handlers
	("Lite Test Hash", "Lite Test Format"): {"on_update": "lite_test_app_two.events.on_grouped_event"},
}
