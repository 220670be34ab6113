import json
import re

import frappe
from frappe import _
from frappe.model.document import Document
from frappe.utils import cint

from huf.huf.row_secrets import forget_removed_row_secrets, forget_row_secrets
from huf.huf.validators import throw_if_duplicate_rows, validate_http_url

NAME_PATTERN = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$")
NAMESPACE_PATTERN = re.compile(r"^[A-Za-z0-9_-]{1,32}$")
OAUTH_URL_FIELDS = (
	"oauth_authorization_endpoint",
	"oauth_token_endpoint",
	"oauth_redirect_uri",
)


class MCPServer(Document):
	# begin: auto-generated types
	# This code is auto-generated. Do not modify anything in this block.

	from typing import TYPE_CHECKING

	if TYPE_CHECKING:
		from frappe.types import DF

		from huf.huf.doctype.mcp_server_header.mcp_server_header import MCPServerHeader
		from huf.huf.doctype.mcp_server_tool.mcp_server_tool import MCPServerTool

		auth_header_name: DF.Data | None
		auth_header_value: DF.Password | None
		auth_type: DF.Literal["none", "api_key", "bearer_token", "custom_header", "oauth"]
		auto_sync_interval: DF.Int
		available_tools: DF.Code | None
		custom_headers: DF.Table[MCPServerHeader]
		description: DF.SmallText | None
		enable_auto_sync: DF.Check
		enabled: DF.Check
		last_sync: DF.Datetime | None
		oauth_access_token: DF.Password | None
		oauth_authorization_endpoint: DF.Data | None
		oauth_authorization_server: DF.Data | None
		oauth_client_id: DF.SmallText | None
		oauth_client_registration_method: DF.Data | None
		oauth_client_secret: DF.Password | None
		oauth_discovery_error: DF.SmallText | None
		oauth_discovery_status: DF.Literal["Not Started", "Discovered", "Failed"]
		oauth_extra_authorize_params: DF.SmallText | None
		oauth_last_discovered_at: DF.Datetime | None
		oauth_metadata_json: DF.Code | None
		oauth_redirect_uri: DF.Data | None
		oauth_refresh_token: DF.Password | None
		oauth_registration_endpoint: DF.Data | None
		oauth_resource_metadata_url: DF.Data | None
		oauth_scope: DF.SmallText | None
		oauth_status: DF.Literal["Not Connected", "Connected", "Expired", "Error"]
		oauth_token_endpoint: DF.Data | None
		oauth_token_expires_at: DF.Datetime | None
		oauth_token_response_path: DF.Data | None
		server_name: DF.Data
		server_url: DF.Data | None
		stdio_server: DF.Data | None
		timeout_seconds: DF.Int
		tool_namespace: DF.Data | None
		tools: DF.Table[MCPServerTool]
		transport_type: DF.Literal["http", "sse", "stdio"]
	# end: auto-generated types

	def validate(self) -> None:
		self.server_name = (self.server_name or "").strip()
		if not NAME_PATTERN.match(self.server_name):
			frappe.throw(_("Server Name may contain only letters, digits, ., _ and - (at most 64)."))
		self.check_stdio_writer()
		if self.transport_type == "stdio":
			self.validate_stdio()
		else:
			self.server_url = validate_http_url(self.server_url, _("Server URL"))
		if self.tool_namespace and not NAMESPACE_PATTERN.match(self.tool_namespace):
			frappe.throw(_("Tool Namespace may contain only letters, digits, _ and - (at most 32)."))
		if not 1 <= cint(self.timeout_seconds or 30) <= 600:
			frappe.throw(_("Timeout must be between 1 and 600 seconds."))
		if self.enable_auto_sync and cint(self.auto_sync_interval) < 1:
			frappe.throw(_("Sync Interval must be at least 1 hour."))
		self.validate_auth()
		throw_if_duplicate_rows(self.custom_headers, "header_name", _("Custom Headers"))
		throw_if_duplicate_rows(self.tools, "tool_name", _("Tools"))

	def validate_stdio(self) -> None:
		"""A stdio server names a key of the site's allow-list (checked when set: a key dropped from the
		allow-list later still lets the server be disabled); it has no URL, auth or headers."""
		from huf.ai.mcp.stdio import check_allowed

		self.stdio_server = (self.stdio_server or "").strip()
		if (
			self.is_new()
			or self.has_value_changed("transport_type")
			or self.has_value_changed("stdio_server")
		):
			check_allowed(self.stdio_server)
		self.server_url = ""
		if (self.auth_type or "none") != "none" or self.custom_headers:
			frappe.throw(_("A stdio server takes no authentication or custom headers."))

	def check_stdio_writer(self) -> None:
		"""Only a System Manager creates a stdio server or changes a server's transport or allow-list key
		to or from stdio (whatever the DocPerms or `ignore_permissions` say)."""
		before = self.get_doc_before_save()
		was_stdio = bool(before and before.transport_type == "stdio")
		if self.transport_type != "stdio" and not was_stdio:
			return
		if was_stdio and not (
			self.has_value_changed("transport_type") or self.has_value_changed("stdio_server")
		):
			return
		if "System Manager" not in frappe.get_roles():
			frappe.throw(_("Only a System Manager may set up a stdio MCP server."), frappe.PermissionError)

	def on_update(self) -> None:
		# the agents' rows show the URL and the number of enabled tools
		from huf.ai.mcp.sync import update_agent_rows

		update_agent_rows(self)
		forget_removed_row_secrets(self, "custom_headers", "header_value")

	def on_trash(self) -> None:
		forget_row_secrets(self, "custom_headers", "header_value")

	def validate_auth(self) -> None:
		auth = self.auth_type or "none"
		if auth == "api_key":
			self.auth_header_name = (self.auth_header_name or "").strip() or "X-API-Key"
		elif auth == "bearer_token":
			self.auth_header_name = "Authorization"
		elif auth == "custom_header" and not (self.auth_header_name or "").strip():
			frappe.throw(_("Auth Header Name is required for the custom_header auth type."))
		if auth in ("api_key", "bearer_token", "custom_header") and not self.auth_header_value:
			frappe.throw(_("Auth Header Value is required for the {0} auth type.").format(auth))
		if auth == "oauth":
			for fieldname in OAUTH_URL_FIELDS:
				if self.get(fieldname):
					self.set(
						fieldname, validate_http_url(self.get(fieldname), _(self.meta.get_label(fieldname)))
					)
			if self.oauth_extra_authorize_params:
				try:
					params = json.loads(self.oauth_extra_authorize_params)
				except ValueError:
					params = None
				if not isinstance(params, dict):
					frappe.throw(
						_('Extra Authorize Params must be a JSON object, e.g. {"access_type": "offline"}.')
					)

	@frappe.whitelist(methods=["POST"])
	def sync_tools(self) -> dict:
		"""Fetch and cache the server's tools (Desk button Sync Tools)."""
		self.check_permission("write")
		return frappe.get_attr("huf.ai.mcp_client.sync_mcp_server_tools")(self.name)

	@frappe.whitelist()
	def test_connection(self) -> dict:
		"""Check that the server answers (Desk button Test Connection)."""
		self.check_permission("read")
		return frappe.get_attr("huf.ai.mcp_client.test_mcp_connection")(self.name)

	@frappe.whitelist(methods=["POST"])
	def oauth_connect(self) -> dict:
		"""Start the OAuth flow (Desk button Connect); returns the authorization URL to open."""
		return frappe.get_attr("huf.api.mcp.start_mcp_oauth")(self.name)

	@frappe.whitelist(methods=["POST"])
	def oauth_disconnect(self) -> dict:
		"""Forget the OAuth tokens (Desk button Disconnect)."""
		return frappe.get_attr("huf.api.mcp.disconnect_mcp_oauth")(self.name)
