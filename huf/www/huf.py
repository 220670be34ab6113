"""The Huf dashboard at /huf and /huf/<path>: the built React app, with the signed-in user's boot data.

`get_context_for_dev` (upstream's endpoint) hands the same boot data to the dashboard's dev server,
which serves the app itself and cannot read it from this page."""

from __future__ import annotations

import json
import os
import re
from urllib.parse import quote

import frappe

from huf.huf.capabilities import capabilities_of
from huf.huf.capability_access import allows
from huf.huf.data_tables.fields import FIELD_TYPES
from huf.huf.doc_events import DOC_EVENTS
from huf.huf.tool_approval_defaults import APPROVAL_KINDS

no_cache = 1

BUILD_DIR = ("public", "frontend")
ASSET_TAG = re.compile(r"<(?:script|link)\b[^>]*/assets/huf/frontend/[^>]*>(?:</script>)?", re.IGNORECASE)
PTYPES = ("read", "write", "create", "delete")
# Record types the dashboard reads or edits; the boot data says which of them the user may use.
DASHBOARD_DOCTYPES = (
	"Agent",
	"AI Provider",
	"AI Model",
	"Agent Tool Function",
	"Agent Tool Type",
	"MCP Server",
	"Knowledge Source",
	"Knowledge Input",
	"Agent Conversation",
	"Agent Message",
	"Agent Run",
	"Agent Run Feedback",
	"Agent Trigger",
	"Agent Orchestration",
	"Agent Settings",
	"Huf Budget",
	"Agent Prompt",
	"Flow Definition",
	"Flow Run",
	"Integration Service",
	"Integration Settings",
)


def get_context(context) -> None:
	if frappe.session.user == "Guest":
		frappe.local.flags.redirect_location = "/login?redirect-to=" + quote(login_target(), safe="/")
		raise frappe.Redirect(302)  # temporary: a cached 301 would bring the signed-in user back to the login
	context.no_cache = 1
	context.assets = get_asset_tags()
	context.boot_json = script_json(get_boot())
	context.title = "Huf"


@frappe.whitelist(methods=["POST"])
def get_context_for_dev() -> dict:
	"""The boot data /huf embeds for the signed-in user (guests are refused), for the dashboard's dev
	server (`npm run dev`), which loads it with a POST."""
	return get_boot()


def login_target() -> str:
	"""Where to come back after logging in: this dashboard page (never another site)."""
	request = getattr(frappe.local, "request", None)
	path = request.path if request else "/huf"
	return path if path == "/huf" or path.startswith("/huf/") else "/huf"


def get_asset_tags() -> list[str]:
	"""The script and stylesheet tags of the built app (empty when it has not been built)."""
	index = os.path.join(frappe.get_app_path("huf", *BUILD_DIR), "index.html")
	if not os.path.isfile(index):
		return []
	with open(index, encoding="utf-8") as f:
		return ASSET_TAG.findall(f.read())


def get_boot() -> dict:
	"""What the app needs before its first request: who is signed in, what they may do, and the constants the
	server owns (document events, data table field types)."""
	from frappe.sessions import get_csrf_token
	from frappe.utils import get_fullname

	user = frappe.session.user
	roles = frappe.get_roles(user)
	capabilities = capabilities_of(user)
	return {
		"user": user,
		"full_name": get_fullname(user),
		"roles": roles,
		"capabilities": capabilities,
		# what the role's DocPerms allow and the capabilities the server checks beside them agree on
		"permissions": {
			doctype: {
				ptype: bool(frappe.has_permission(doctype, ptype)) and allows(capabilities, doctype, ptype)
				for ptype in PTYPES
			}
			for doctype in DASHBOARD_DOCTYPES
		},
		"csrf_token": get_csrf_token() or "",
		"site_name": frappe.local.site,
		# the server's clock in its time zone: the browser measures how long runs take against it
		"server_now": frappe.utils.now(),
		"realtime": realtime_boot(),
		# constants the server owns, so the dashboard keeps no copies of them
		"doc_events": list(DOC_EVENTS),  # the document events triggers and flows may start on
		"data_field_types": list(FIELD_TYPES),  # the field types a data table's columns may have
		"approval_kinds": sorted(APPROVAL_KINDS),  # tool kinds whose new tools start asking for approval
	}


def realtime_boot() -> dict:
	"""Where Frappe's socket.io server listens (a bench's `socketio_port`; none on Frappe Lite) and Huf's events on it."""
	from huf.ai.live_events import KINDS

	return {"socketio_port": frappe.utils.cint(frappe.conf.get("socketio_port")) or None, "events": KINDS}


def script_json(value: dict) -> str:
	"""JSON safe inside a <script> element (no `</script>` or comment openers can break out)."""
	text = json.dumps(value, default=str, separators=(",", ":"))
	return text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")
