"""Upstream Huf's integration tools (its `huf_tools` list ALL_INTEGRATION_TOOLS, 46 tools) and the Huf tool each one is.

`UPSTREAM_TOOLS` is the one mapping: upstream's tool name -> (Huf's tool name, upstream's function path).
`with_upstream_names(definitions)` applies it to Huf's `huf_tools` definitions:
- a Huf tool upstream had under another name is also declared under upstream's name (the same function
  and parameters), so an agent built on upstream, whose Agent Tool rows name upstream's tools, finds them;
- the definition of every Huf tool upstream had lists upstream's function path in `function_path_aliases`,
  so an upstream tool record (App Provided, upstream's path) resolves to Huf's function
  (`huf.huf.app_tools.find_registered_tool`; the record is saved with Huf's path).
"""

from __future__ import annotations

_UP = "huf.ai.tools."

UPSTREAM_TOOLS: dict[str, tuple[str, str]] = {
	"get_integration_recipient": ("get_integration_recipient", _UP + "recipient.handle_get_recipient"),
	"slack_send_message": ("slack_send_message", _UP + "slack.handle_send_message"),
	"slack_send_thread_reply": ("slack_reply_in_thread", _UP + "slack.handle_send_message_thread"),
	"slack_list_channels": ("slack_list_channels", _UP + "slack.handle_list_channels"),
	"slack_get_channel_history": ("slack_get_channel_history", _UP + "slack.handle_get_channel_history"),
	"slack_search_messages": ("slack_search_messages", _UP + "slack.handle_search_messages"),
	"slack_list_users": ("slack_list_users", _UP + "slack.handle_list_users"),
	"discord_send_message": ("discord_send_message", _UP + "discord.handle_send_message"),
	"discord_get_messages": ("discord_get_messages", _UP + "discord.handle_get_channel_messages"),
	"discord_list_channels": ("discord_list_channels", _UP + "discord.handle_list_channels"),
	"discord_delete_message": ("discord_delete_message", _UP + "discord.handle_delete_message"),
	"telegram_send_message": ("telegram_send_message", _UP + "telegram.handle_send_message"),
	"github_list_repos": ("github_list_repos", _UP + "github.handle_list_repos"),
	"github_get_repo": ("github_get_repo", _UP + "github.handle_get_repo"),
	"github_create_issue": ("github_create_issue", _UP + "github.handle_create_issue"),
	"github_create_pr": ("github_create_pull_request", _UP + "github.handle_create_pull_request"),
	"github_get_file": ("github_get_file", _UP + "github.handle_get_file_content"),
	"github_search_code": ("github_search_code", _UP + "github.handle_search_code"),
	"gmail_get_emails": ("gmail_search_emails", _UP + "gmail.handle_get_emails"),
	"gmail_send_email": ("gmail_send_email", _UP + "gmail.handle_send_email"),
	"gmail_create_draft": ("gmail_create_draft", _UP + "gmail.handle_create_draft"),
	"gmail_mark_as_read": ("gmail_mark_as_read", _UP + "gmail.handle_mark_as_read"),
	"gsheets_read": ("google_sheets_read_rows", _UP + "google_sheets.handle_read_sheet"),
	"gsheets_update": ("gsheets_update", _UP + "google_sheets.handle_update_sheet"),
	"gsheets_create": ("gsheets_create", _UP + "google_sheets.handle_create_sheet"),
	"gcalendar_list_events": ("google_calendar_list_events", _UP + "google_calendar.handle_list_events"),
	"gcalendar_create_event": ("google_calendar_create_event", _UP + "google_calendar.handle_create_event"),
	"gcalendar_update_event": ("gcalendar_update_event", _UP + "google_calendar.handle_update_event"),
	"gcalendar_delete_event": ("gcalendar_delete_event", _UP + "google_calendar.handle_delete_event"),
	"gmaps_search_places": ("gmaps_search_places", _UP + "google_maps.handle_search_places"),
	"gmaps_get_directions": ("gmaps_get_directions", _UP + "google_maps.handle_get_directions"),
	"gmaps_geocode": ("gmaps_geocode", _UP + "google_maps.handle_geocode"),
	"gmaps_reverse_geocode": ("gmaps_reverse_geocode", _UP + "google_maps.handle_reverse_geocode"),
	"gdrive_list_files": ("gdrive_list_files", _UP + "google_drive.handle_list_files"),
	"gdrive_get_file": ("gdrive_get_file", _UP + "google_drive.handle_get_file"),
	"gdrive_search_files": ("gdrive_search_files", _UP + "google_drive.handle_search_files"),
	"google_meet_create_space": ("google_meet_create_space", _UP + "google_meet.handle_create_meet_space"),
	"google_meet_create_event": ("google_meet_create_event", _UP + "google_meet.handle_create_meet_event"),
	"frappe_crm": ("frappe_crm", _UP + "crm.handle_action"),
	"erpnext_crm": ("erpnext_crm", _UP + "erpnext_crm.handle_action"),
	"erpnext_inventory": ("erpnext_inventory", _UP + "erpnext_inventory.handle_action"),
	"erpnext_run_report": ("erpnext_run_report", _UP + "erpnext_reports.handle_run_report"),
	"erpnext_list_reports": ("erpnext_list_reports", _UP + "erpnext_reports.handle_list_reports"),
	"helpdesk": ("helpdesk", _UP + "helpdesk.handle_action"),
	"raven": ("raven", _UP + "raven.handle_action"),
	"erpnext": ("erpnext", _UP + "erpnext.handle_action"),
}


def with_upstream_names(definitions: list[dict]) -> list[dict]:
	"""`definitions` with upstream's function paths as aliases, then upstream's names of Huf's tools."""
	by_name = {d["tool_name"]: d for d in definitions}
	aliases: dict[str, list[str]] = {}
	for huf_name, upstream_path in UPSTREAM_TOOLS.values():
		aliases.setdefault(huf_name, []).append(upstream_path)
	out = [
		{**d, "function_path_aliases": aliases[d["tool_name"]]} if d["tool_name"] in aliases else d
		for d in definitions
	]
	for upstream_name, (huf_name, _path) in UPSTREAM_TOOLS.items():
		if upstream_name != huf_name and huf_name in by_name:
			huf = by_name[huf_name]
			out.append(
				{
					**huf,
					"tool_name": upstream_name,
					"description": f"{huf['description']} (Upstream Huf's name of {huf_name}.)",
				}
			)
	return out
