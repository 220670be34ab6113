"""The OCR tool's endpoint (huf.ai.sdk_tools.handle_ocr_document) returns the extracted text over REST."""

import json

import frappe

from huf.tests.support.committed import delete_committed
from huf.tests.support.role_sessions import ALICE, RoleSessionsTestCase


class TestOcrOverREST(RoleSessionsTestCase):
	def test_the_media_tool_endpoints_return_their_result_over_rest(self):
		from huf.ai.media.common import new_file

		with self.set_user(ALICE):
			notes = new_file("ocr-notes.txt", b"Invoice 7731 is due on Friday.")
		frappe.db.commit()
		self.addCleanup(delete_committed, "File", notes.name)
		answer = self.session(ALICE).post(
			"/api/method/huf.ai.sdk_tools.handle_ocr_document", json={"file_url": notes.file_url}
		)
		self.assertEqual(answer.status_code, 200, answer.text)
		self.assertIn("Invoice 7731 is due on Friday.", json.dumps(answer.json()["message"]))
		self.assertNotIn("coroutine", answer.text)
