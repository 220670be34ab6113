"""Transcribing a private recording (huf.ai.media.speech_to_text) keeps it private, to its owner only."""

import frappe

from huf.tests.support.committed import delete_committed
from huf.tests.support.role_sessions import ALICE, BOB, RoleSessionsTestCase


class TestUploadsStayPrivate(RoleSessionsTestCase):
	def test_transcribing_a_private_recording_keeps_it_private(self):
		from huf.ai.media.common import new_file

		with self.set_user(ALICE):
			audio = new_file("private-voice.mp3", b"ID3 private voice memo")
		frappe.db.commit()
		self.addCleanup(delete_committed, "File", audio.name)
		body = {"audio_file_url": audio.file_url, "agent": self.AGENT}
		url = "/api/method/huf.ai.media.speech_to_text.transcribe_audio"

		own = self.session(ALICE).post(url, json=body)
		other = self.session(BOB).post(url, json=body)
		download = self.client().get(audio.file_url)

		self.assertEqual(own.status_code, 200, own.text)
		self.assertEqual(own.json()["message"]["text"], "scripted transcript")
		self.assertEqual(other.status_code, 403, other.text)
		self.assertEqual(download.status_code, 403)
		self.assertNotIn(b"private voice memo", download.content)
		frappe.db.rollback()
		self.assertEqual(
			frappe.db.get_value("File", audio.name, ["is_private", "file_url"]), (1, audio.file_url)
		)
		self.assertTrue(audio.file_url.startswith("/private/files/"))
