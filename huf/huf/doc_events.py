"""The document events Frappe fires, which Agent Triggers and flows may start on."""

# Document events Frappe fires (after_save / after_submit are not among them, so they are refused).
DOC_EVENTS = (
	"after_insert",
	"validate",
	"before_save",
	"on_update",
	"on_submit",
	"on_cancel",
	"on_trash",
	"on_change",
	"on_update_after_submit",
)
