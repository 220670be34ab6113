"""The built-in integration services, seeded idempotently on install and after every migrate."""

from __future__ import annotations

import json

import frappe

GOOGLE_AUTHORIZE = "https://accounts.google.com/o/oauth2/v2/auth"
GOOGLE_TOKEN = "https://oauth2.googleapis.com/token"


def _cred(key, label, secret=True, required=True, description=""):
	return {"key": key, "label": label, "secret": secret, "required": required, "description": description}


FRAPPE_CREDENTIALS = [
	_cred("api_key", "API key", secret=False, description="User settings > API Access of the site."),
	_cred("api_secret", "API secret"),
]
GOOGLE_CREDENTIALS = [
	_cred(
		"client_id",
		"OAuth client ID",
		secret=False,
		required=False,
		description="Google Cloud console > Credentials; needed to connect and refresh.",
	),
	_cred("client_secret", "OAuth client secret", required=False),
]


def _google(label, base, scope, test_path, description):
	return {
		"label": label,
		"category": "Productivity",
		"description": description,
		"api_base_url": base,
		"auth_type": "OAuth 2.0",
		"oauth_authorize_url": GOOGLE_AUTHORIZE,
		"oauth_token_url": GOOGLE_TOKEN,
		"oauth_scopes": scope,
		"test_path": test_path,
		"required_credentials": GOOGLE_CREDENTIALS,
	}


SERVICES: dict[str, dict] = {
	"slack": {
		"label": "Slack",
		"category": "Communication",
		"description": "Send messages to Slack channels and talk to agents in Slack.",
		"api_base_url": "https://slack.com/api",
		"auth_type": "Bearer Token",
		"test_path": "/auth.test",
		"documentation_url": "https://api.slack.com/apps",
		"required_credentials": [
			_cred("bot_token", "Bot token (xoxb-...)"),
			_cred(
				"user_token",
				"User token (xoxp-...)",
				required=False,
				description="Only for slack_search_messages (Slack searches with a user token, scope search:read).",
			),
		],
	},
	"discord": {
		"label": "Discord",
		"category": "Communication",
		"description": "Send, read and delete messages in the channels of a Discord server through a bot.",
		"api_base_url": "https://discord.com/api/v10",
		"auth_type": "Bot Token",
		"test_path": "/users/@me",
		"documentation_url": "https://discord.com/developers/applications",
		"required_credentials": [
			_cred("bot_token", "Bot token", description="Developer Portal > Bot > Token.")
		],
	},
	"telegram": {
		"label": "Telegram",
		"category": "Communication",
		"description": "Send Telegram messages and talk to agents through a Telegram bot.",
		"api_base_url": "https://api.telegram.org",
		"auth_type": "Bot Token in URL",
		"test_path": "/getMe",
		"documentation_url": "https://core.telegram.org/bots#how-do-i-create-a-bot",
		"required_credentials": [_cred("bot_token", "Bot token from @BotFather")],
	},
	"github": {
		"label": "GitHub",
		"category": "Developer",
		"description": "Issues, pull requests and repositories on GitHub.",
		"api_base_url": "https://api.github.com",
		"auth_type": "Bearer Token",
		"test_path": "/user",
		"default_headers": {"Accept": "application/vnd.github+json", "X-GitHub-Api-Version": "2022-11-28"},
		"required_credentials": [_cred("token", "Personal access token")],
	},
	"gmail": _google(
		"Gmail",
		"https://gmail.googleapis.com",
		"https://www.googleapis.com/auth/gmail.modify",
		"/gmail/v1/users/me/profile",
		"Read and send Gmail messages.",
	),
	"google_calendar": _google(
		"Google Calendar",
		"https://www.googleapis.com",
		"https://www.googleapis.com/auth/calendar",
		"/calendar/v3/users/me/calendarList?maxResults=1",
		"List, create, update and delete Google Calendar events.",
	),
	"google_sheets": _google(
		"Google Sheets",
		"https://sheets.googleapis.com",
		"https://www.googleapis.com/auth/spreadsheets",
		"",
		"Create spreadsheets, read and append rows of Google Sheets.",
	),
	"google_drive": {
		**_google(
			"Google Drive",
			"https://www.googleapis.com",
			"https://www.googleapis.com/auth/drive.readonly",
			"/drive/v3/about?fields=user",
			"List, search and read the details of Google Drive files.",
		),
		"category": "Storage",
	},
	"google_meet": _google(
		"Google Meet",
		"https://meet.googleapis.com",
		"https://www.googleapis.com/auth/meetings.space.created https://www.googleapis.com/auth/calendar.events",
		"",
		"Create Google Meet meeting spaces and calendar events with a Meet link.",
	),
	"google_maps": {
		"label": "Google Maps",
		"category": "Productivity",
		"description": "Search places, get directions and geocode addresses (Places, Routes and Geocoding APIs).",
		"api_base_url": "https://geocode.googleapis.com",
		"auth_type": "API Key Header",
		"auth_header_name": "X-Goog-Api-Key",
		"test_path": "/v4/geocode/address/Googleplex",
		"documentation_url": "https://developers.google.com/maps/documentation/geocoding/get-api-key",
		"required_credentials": [
			_cred(
				"api_key",
				"API key",
				description="Google Cloud console > Credentials; enable the Places API (New), Routes API and Geocoding API.",
			)
		],
	},
	"notion": {
		"label": "Notion",
		"category": "Productivity",
		"description": "Search, read and create Notion pages.",
		"api_base_url": "https://api.notion.com/v1",
		"auth_type": "Bearer Token",
		"test_path": "/users/me",
		"default_headers": {"Notion-Version": "2022-06-28"},
		"required_credentials": [_cred("token", "Internal integration secret")],
	},
	"hubspot": {
		"label": "HubSpot",
		"category": "CRM",
		"description": "Contacts, companies and deals in HubSpot.",
		"api_base_url": "https://api.hubapi.com",
		"auth_type": "Bearer Token",
		"test_path": "/crm/v3/objects/contacts?limit=1",
		"required_credentials": [_cred("token", "Private app access token")],
	},
	"frappe": {
		"label": "Frappe / ERPNext",
		"category": "Finance",
		"description": "Documents, Frappe CRM, ERPNext CRM, inventory, transactions, accounting and reports of another Frappe or ERPNext site.",
		"auth_type": "Frappe Token",
		"test_path": "/api/method/frappe.auth.get_logged_user",
		"required_credentials": FRAPPE_CREDENTIALS,
	},
	"helpdesk": {
		"label": "Frappe Helpdesk",
		"category": "CRM",
		"description": "Tickets, comments, agents, teams and assignment of a Frappe Helpdesk site.",
		"auth_type": "Frappe Token",
		"test_path": "/api/method/frappe.auth.get_logged_user",
		"required_credentials": FRAPPE_CREDENTIALS,
	},
	"raven": {
		"label": "Raven",
		"category": "Communication",
		"description": "Messages, channels and members of Raven on a Frappe site.",
		"auth_type": "Frappe Token",
		"test_path": "/api/method/frappe.auth.get_logged_user",
		"required_credentials": FRAPPE_CREDENTIALS,
	},
	"webhook": {
		"label": "Generic Webhook",
		"category": "Other",
		"description": "POST JSON to a webhook URL (Zapier, n8n, Make...); the Base URL is the webhook URL.",
		"auth_type": "Webhook URL",
		"test_path": "",
		"required_credentials": [
			_cred("secret", "Signing secret", required=False, description="Signs the body (X-Huf-Signature).")
		],
	},
}


def service_label(service: str) -> str:
	"""The display name of a service ("GitHub"), else its key."""
	return SERVICES.get(service, {}).get("label") or service


def seed_services() -> None:
	"""Create or update the built-in services (safe to run any number of times)."""
	for name, spec in SERVICES.items():
		values = {k: v for k, v in spec.items() if k != "label"}
		values["required_credentials"] = json.dumps(values["required_credentials"], indent=1)
		if "default_headers" in values:
			values["default_headers"] = json.dumps(values["default_headers"])
		values["is_builtin"] = 1
		doc = (
			frappe.get_doc("Integration Service", name)
			if frappe.db.exists("Integration Service", name)
			else frappe.new_doc("Integration Service")
		)
		if doc.is_new():
			doc.service_name = name
		doc.update(values)
		doc.flags.ignore_permissions = True
		doc.save()
