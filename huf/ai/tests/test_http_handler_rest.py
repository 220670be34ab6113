"""The whitelisted HTTP-tool and media endpoints over real HTTP: they return data and refuse guests."""

import frappe

from huf.ai.http.tests.test_safe_http import EchoServer
from huf.tests.support.config import set_site_config
from huf.tests.support.runs import RuntimeTestCase, make_runtime_agent
from huf.tests.support.web import api_clients

AGENT = "Media REST Agent"
TOOL = "rest_http_get_tool"


class TestEndpointsOverHTTP(RuntimeTestCase):
	@classmethod
	def setUpClass(cls):
		super().setUpClass()
		cls.echo = EchoServer()
		cls.addClassCleanup(cls.echo.close)
		set_site_config("huf_http_allowed_hosts", [f"127.0.0.1:{cls.echo.port}"])
		cls.addClassCleanup(set_site_config, "huf_http_allowed_hosts", None)

		if frappe.db.exists("Agent Tool Function", TOOL):
			frappe.delete_doc("Agent Tool Function", TOOL, force=True, ignore_permissions=True)
		frappe.get_doc(
			{
				"doctype": "Agent Tool Function",
				"tool_name": TOOL,
				"types": "GET",
				"tool_type": "HTTP",
				"description": "Echo",
				"base_url": f"http://127.0.0.1:{cls.echo.port}",
				"http_headers": [{"key": "X-Token", "value": "rest-secret"}],
			}
		).insert(ignore_permissions=True)
		cls.addClassCleanup(cls._delete_tool)
		make_runtime_agent(AGENT)
		frappe.db.commit()

		cls.admin, cls.guest = api_clients(cls, "Administrator", None, path="/api/method/")

	@staticmethod
	def _delete_tool():
		frappe.delete_doc("Agent Tool Function", TOOL, force=True, ignore_permissions=True)
		frappe.db.commit()

	def test_http_tool_endpoint(self):
		answer = self.admin.post(
			"huf.ai.http_handler.handle_get_request", json={"url": "/echo", "tool_name": TOOL}
		)
		self.assertEqual(answer.status_code, 200, answer.text)
		result = answer.json()["message"]
		self.assertEqual((result["success"], result["status_code"]), (True, 200))
		self.assertEqual(result["data"]["headers"]["x-token"], "rest-secret")

		no_tool = self.admin.post("huf.ai.http_handler.handle_get_request", json={"url": self.echo.url()})
		self.assertEqual(no_tool.status_code, 403)
		guest = self.guest.post(
			"huf.ai.http_handler.handle_get_request", json={"url": "/echo", "tool_name": TOOL}
		)
		self.assertEqual(guest.status_code, 403)
		self.assertEqual(
			self.admin.get("huf.ai.http_handler.handle_get_request").status_code, 403
		)  # POST only
		self.assertEqual(len(self.echo.requests), 1)

	def test_transcribe_audio_returns_data(self):
		from huf.ai.media.common import new_file

		audio = new_file("rest-voice.mp3", b"ID3 rest audio")
		frappe.db.commit()
		self.addCleanup(self._delete_file, audio.name)
		self.llm.transcript = "spoken over REST"
		answer = self.admin.post(
			"huf.ai.media.speech_to_text.transcribe_audio",
			json={"audio_file_url": audio.file_url, "agent": AGENT, "language": "en"},
		)
		self.assertEqual(answer.status_code, 200, answer.text)
		self.assertEqual(answer.json()["message"]["text"], "spoken over REST")
		guest = self.guest.post(
			"huf.ai.media.speech_to_text.transcribe_audio", json={"audio_file_url": audio.file_url}
		)
		self.assertEqual(guest.status_code, 403)

	@staticmethod
	def _delete_file(name):
		frappe.delete_doc("File", name, force=True, ignore_permissions=True)
		frappe.db.commit()
