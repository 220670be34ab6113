"""Fixtures of the inbound channel tests: an agent on the scripted LLM, the site served over HTTP, a
scripted service API (Telegram / Slack) and committed Integration Settings pointing at it."""

from __future__ import annotations

import frappe

from huf.tests.support.http_service import allowed_service
from huf.tests.support.jobs import wait_until
from huf.tests.support.runs import LiveAgentTestCase
from huf.tests.support.service_tools import delete_settings


class ChannelTestCase(LiveAgentTestCase):
	"""`api`: the scripted service API; `make_settings` makes active settings of SERVICE pointing at it."""

	SERVICE = ""
	CREDENTIALS: dict = {}

	@classmethod
	def setUpClass(cls) -> None:
		super().setUpClass()
		cls.api = allowed_service(cls)

	def setUp(self) -> None:
		super().setUp()
		self.api.reset()

	def make_settings(self, secret: str | None, recipients: list | None = None, **values) -> str:
		"""Committed active settings of SERVICE answering with AGENT (deleted after the test)."""
		doc = frappe.get_doc(
			{
				"doctype": "Integration Settings",
				"service": self.SERVICE,
				"label": f"{self.SERVICE} {frappe.generate_hash(length=8)}",
				"is_active": 1,
				"base_url": self.api.url,
				"agent": self.AGENT,
				"webhook_secret": secret,
				"credentials": [{"key": key, "value": value} for key, value in self.CREDENTIALS.items()],
				"recipients": recipients or [],
				**values,
			}
		).insert(ignore_permissions=True)
		frappe.db.commit()
		self.addCleanup(delete_settings, doc.name)
		return doc.name

	def runs(self) -> list:
		frappe.db.commit()
		return frappe.get_all("Agent Run", filters={"agent": self.AGENT}, fields=["name", "user", "status"])

	def wait_for_requests(self, path_end: str, count: int = 1) -> list:
		"""The scripted service's requests whose path ends with `path_end`, once there are `count`."""
		return wait_until(
			lambda: (
				(found := [r for r in self.api.requests if r["path"].endswith(path_end)])
				and len(found) >= count
				and found
			),
			timeout=90,
			message=f"no {count} request(s) to {path_end}: {self.api.requests}",
		)
