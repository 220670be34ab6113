"""Google Drive tools against a scripted Drive API v3."""

import frappe

from huf.ai.integrations.services.google_drive import gdrive_get_file, gdrive_list_files, gdrive_search_files
from huf.api.integrations import test_connection as run_connection_test
from huf.tests.support.http_service import reply
from huf.tests.support.service_tools import GOOGLE_APP, ServiceToolTestCase, oauth_values

TOKEN = "ya29.drive-test-access-token"
FILE = {
	"id": "1AbC",
	"name": "Q3 report.pdf",
	"mimeType": "application/pdf",
	"modifiedTime": "2026-11-30T10:00:00.000Z",
	"size": "48213",
	"webViewLink": "https://drive.google.com/file/d/1AbC/view",
	"owners": [{"displayName": "Anna", "emailAddress": "anna@example.com"}],
}
FILE_RESULT = {
	"id": "1AbC",
	"name": "Q3 report.pdf",
	"mime_type": "application/pdf",
	"modified": "2026-11-30T10:00:00.000Z",
	"size": "48213",
	"url": "https://drive.google.com/file/d/1AbC/view",
	"owners": ["anna@example.com"],
}


class TestGoogleDriveTools(ServiceToolTestCase):
	SERVICE = "google_drive"
	CREDENTIALS = GOOGLE_APP
	SETTINGS_VALUES = oauth_values(TOKEN)

	def test_list_files_newest_first_with_the_oauth_token(self):
		self.api.queue({"files": [FILE], "nextPageToken": "next"})
		result = gdrive_list_files(limit=5)
		self.assertEqual(result, {"count": 1, "files": [FILE_RESULT], "more": True})
		[request] = self.api.requests
		self.assertEqual((request["method"], request["path"]), ("GET", "/drive/v3/files"))
		self.assertEqual(request["headers"]["authorization"], f"Bearer {TOKEN}")
		self.assertEqual(request["query"]["q"], "trashed = false")
		self.assertEqual(request["query"]["orderBy"], "modifiedTime desc")
		self.assertEqual(request["query"]["pageSize"], "5")
		self.assertEqual(request["query"]["supportsAllDrives"], "true")
		self.assertTrue(request["query"]["fields"].startswith("nextPageToken,files(id,name,mimeType"))

	def test_list_files_passes_a_drive_query_as_given(self):
		self.api.queue({"files": []})
		gdrive_list_files(query="mimeType = 'application/pdf'")
		self.assertEqual(self.api.requests[0]["query"]["q"], "mimeType = 'application/pdf'")
		self.assertNotIn("orderBy", self.api.requests[0]["query"])

	def test_search_quotes_the_words_in_the_drive_query(self):
		self.api.queue({"files": [FILE]})
		result = gdrive_search_files(query="Anna's \\ report")
		self.assertEqual(result["files"], [FILE_RESULT])
		self.assertEqual(
			self.api.requests[0]["query"]["q"],
			"(name contains 'Anna\\'s \\\\ report' or fullText contains 'Anna\\'s \\\\ report') and trashed = false",
		)

	def test_get_file_quotes_the_id(self):
		self.api.queue({**FILE, "description": "d" * 3000})
		result = gdrive_get_file(file_id="1AbC")
		self.assertEqual(result, {**FILE_RESULT, "description": "d" * 2000})
		self.assertEqual(self.api.requests[0]["path"], "/drive/v3/files/1AbC")
		self.api.queue(FILE)
		gdrive_get_file(file_id="../about")
		self.assertEqual(self.api.requests[1]["path"], "/drive/v3/files/..%2Fabout")

	def test_connection_names_the_account(self):
		self.api.queue({"user": {"displayName": "Anna", "emailAddress": "anna@example.com"}})
		self.assertEqual(
			run_connection_test(self.settings),
			{"ok": True, "message": "Connected to Google Drive as anna@example.com."},
		)
		self.assertEqual(self.api.requests[0]["path"], "/drive/v3/about")
		self.assertEqual(self.api.requests[0]["query"], {"fields": "user"})

	def test_a_drive_error_is_readable_without_the_token(self):
		self.api.queue(reply({"error": {"code": 404, "message": "File not found: x."}}, status=404))
		with self.assertRaises(frappe.ValidationError) as caught:
			gdrive_get_file(file_id="x")
		self.assertEqual(str(caught.exception), "Google Drive answered 404: File not found: x.")
		self.assert_no_secret(str(caught.exception))
