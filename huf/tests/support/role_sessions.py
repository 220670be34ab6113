"""The site over HTTP with one user of each Huf role, logged in with a password as the dashboard is."""

from __future__ import annotations

import httpx

from huf.tests.support.runs import LiveAgentTestCase

MANAGER = "sessions-manager@example.com"
ALICE = "sessions-alice@example.com"
BOB = "sessions-bob@example.com"
VIEWER = "sessions-viewer@example.com"


class RoleSessionsTestCase(LiveAgentTestCase):
	"""LiveAgentTestCase with a Huf Manager, two Huf Users (Alice, Bob) and a Huf Viewer."""

	AGENT = "Role Sessions Agent"
	PROVIDER = "Role Sessions LLM"
	MODEL = "role-sessions-model"
	users = (
		(MANAGER, ("Huf Manager",)),
		(ALICE, ("Huf User",)),
		(BOB, ("Huf User",)),
		(VIEWER, ("Huf Viewer",)),
	)

	def session(self, user: str) -> httpx.Client:
		"""A client logged in as `user` that sends the session's CSRF token, as the dashboard does."""
		client = self.client(user)
		client.headers["X-Frappe-CSRF-Token"] = self.csrf_token(client)
		return client
