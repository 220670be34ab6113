"""Integration endpoints of the dashboard: every service with its settings, Test connection, and the
OAuth 2.0 authorization (Connect Google) with its redirect.

Each checks access (the capability system.integrations.manage, or write on the Integration Settings) and
delegates to huf.ai.integrations (settings, connection, oauth). docs/integrations.md.
"""

import frappe

from huf.ai.integrations import connection, oauth
from huf.ai.integrations import settings as integration_settings
from huf.huf.capabilities import check_capability


@frappe.whitelist(methods=["GET"])
def list_integrations() -> list[dict]:
	"""Every service with its settings for the dashboard; names of credentials only, never a value."""
	check_capability(integration_settings.MANAGE)
	return integration_settings.list_integrations()


@frappe.whitelist(methods=["POST"])
def test_connection(settings: str) -> dict:
	"""Call the test endpoint of the settings' service; stores (when, Connected or Failed, the message) and
	returns {ok, message}."""
	return connection.test_connection(_writable_settings(settings))


@frappe.whitelist(methods=["POST"])
def start_oauth(settings: str) -> dict:
	"""The URL the user opens to grant access ("Connect Google")."""
	return oauth.start(_writable_settings(settings))


@frappe.whitelist(methods=["GET"])
def oauth_callback(code: str | None = None, state: str | None = None, error: str | None = None) -> None:
	"""The provider's redirect (published as `huf.ai.integrations.oauth.callback`, mapped in hooks.py):
	exchange the code for tokens, then back to the dashboard. It acts only with the one-time state issued
	to the same user, who must still manage integrations and may write the settings."""
	oauth.callback(code, state, error)


def _writable_settings(name: str):
	doc = frappe.get_doc("Integration Settings", name)
	doc.check_permission("write")
	return doc
