"""REST and RPC over real HTTP: /api/method and /api/resource status codes and bodies."""

from __future__ import annotations

import json
import os
import unittest

import frappe
import httpx
from frappe.tests import IntegrationTestCase

from tests.lite._site_helpers import start_server

PASSWORD = "Http-Api-Pass-1"
MANAGER = "http_api_manager@example.com"
PLAIN = "http_api_plain@example.com"


def make_user(email: str, roles: tuple[str, ...] = ()) -> None:
	frappe.get_doc(
		{
			"doctype": "User",
			"email": email,
			"first_name": email.split("@")[0],
			"new_password": PASSWORD,
			"roles": [{"role": role} for role in roles],
		}
	).insert(ignore_permissions=True)


def drop_user(email: str) -> None:
	if frappe.db.exists("User", email):
		frappe.delete_doc("User", email, force=True, ignore_permissions=True)


def has_controller_method(doctype: str, method: str) -> bool:
	from frappe.model.base_document import get_controller

	try:
		return hasattr(get_controller(doctype), method)
	except Exception:
		return False


def server_messages(body: dict) -> list[str]:
	return [json.loads(m).get("message") for m in json.loads(body.get("_server_messages") or "[]")]


class TestHTTPAPI(IntegrationTestCase):
	@classmethod
	def setUpClass(cls):
		super().setUpClass()
		for user in (MANAGER, PLAIN):
			drop_user(user)
		make_user(MANAGER, ("System Manager",))
		make_user(PLAIN)
		frappe.db.commit()
		cls.server, cls.base_url = start_server()
		cls.manager = cls.login(MANAGER)
		cls.plain = cls.login(PLAIN)

	@classmethod
	def tearDownClass(cls):
		cls.manager.close()
		cls.plain.close()
		cls.server.shutdown()
		frappe.db.rollback()
		for doctype in ("ToDo", "Lite Test Record"):
			for name in frappe.get_all(doctype, filters={"owner": ["in", [MANAGER, PLAIN]]}, pluck="name"):
				frappe.delete_doc(doctype, name, force=True, ignore_permissions=True)
		for user in (MANAGER, PLAIN):
			drop_user(user)
		frappe.db.commit()
		super().tearDownClass()

	@classmethod
	def login(cls, user: str) -> httpx.Client:
		"""A client with a session of `user` (logged in as a script does: no CSRF token, as on Frappe)."""
		client = httpx.Client(base_url=cls.base_url, timeout=30)
		response = client.post("/api/method/login", data={"usr": user, "pwd": PASSWORD})
		assert response.status_code == 200, response.text
		return client

	def test_ping_answers_pong_to_anyone(self):
		response = httpx.get(f"{self.base_url}/api/method/ping")
		self.assertEqual(response.status_code, 200)
		self.assertEqual(response.json(), {"message": "pong"})
		self.assertTrue(response.headers["content-type"].startswith("application/json"))

	def test_resource_list_needs_a_session(self):
		response = httpx.get(f"{self.base_url}/api/resource/User")
		self.assertEqual(response.status_code, 403)
		body = response.json()
		self.assertEqual(body["exc_type"], "PermissionError")
		self.assertNotIn("exc", body)

		listed = self.manager.get("/api/resource/User", params={"limit_page_length": 0})
		self.assertEqual(listed.status_code, 200)
		names = [row["name"] for row in listed.json()["data"]]
		self.assertIn("Administrator", names)
		self.assertIn(MANAGER, names)

	def test_unknown_routes_are_404(self):
		self.assertEqual(self.manager.get("/api/nothing-here").status_code, 404)
		self.assertEqual(self.manager.get("/api/resource/ToDo/does-not-exist").status_code, 404)
		self.assertEqual(httpx.get(f"{self.base_url}/no-such-page").status_code, 404)

	def test_list_with_fields_filters_order_and_paging(self):
		for i in range(3):
			response = self.manager.post(
				"/api/resource/ToDo", json={"description": f"paging {i}", "priority": "Low"}
			)
			self.assertEqual(response.status_code, 200, response.text)
		params = {
			"fields": json.dumps(["name", "description", "priority"]),
			"filters": json.dumps([["description", "like", "paging %"]]),
			"order_by": "description desc",
			"limit_page_length": 2,
		}
		page = self.manager.get("/api/resource/ToDo", params=params).json()["data"]
		self.assertEqual([row["description"] for row in page], ["paging 2", "paging 1"])
		self.assertEqual(page[0]["priority"], "Low")
		rest = self.manager.get("/api/resource/ToDo", params={**params, "limit_start": 2}).json()["data"]
		self.assertEqual([row["description"] for row in rest], ["paging 0"])
		or_rows = self.manager.get(
			"/api/resource/ToDo",
			params={
				"fields": json.dumps(["description"]),
				"or_filters": json.dumps(
					[["description", "=", "paging 0"], ["description", "=", "paging 2"]]
				),
				"order_by": "description asc",
			},
		).json()["data"]
		self.assertEqual([row["description"] for row in or_rows], ["paging 0", "paging 2"])

	def test_list_page_length_defaults_to_20(self):
		self.manager.post(
			"/api/method/frappe.client.insert_many",
			json={"docs": [{"doctype": "ToDo", "description": f"bulk {i}"} for i in range(22)]},
		)
		rows = self.manager.get(
			"/api/resource/ToDo", params={"filters": json.dumps({"description": ["like", "bulk %"]})}
		).json()["data"]
		self.assertEqual(len(rows), 20)
		rows = self.manager.get(
			"/api/resource/ToDo",
			params={"filters": json.dumps({"description": ["like", "bulk %"]}), "limit": 21},
		).json()["data"]
		self.assertEqual(len(rows), 21)

	def test_crud_status_codes(self):
		created = self.manager.post("/api/resource/ToDo", json={"description": "crud me", "status": "Open"})
		self.assertEqual(created.status_code, 200, created.text)
		doc = created.json()["data"]
		self.assertEqual(doc["description"], "crud me")
		self.assertEqual(doc["owner"], MANAGER)
		url = f"/api/resource/ToDo/{doc['name']}"

		read = self.manager.get(url)
		self.assertEqual(read.status_code, 200)
		self.assertEqual(read.json()["data"]["name"], doc["name"])

		updated = self.manager.put(url, json={"status": "Closed"})
		self.assertEqual(updated.status_code, 200, updated.text)
		self.assertEqual(updated.json()["data"]["status"], "Closed")
		self.assertEqual(frappe.db.get_value("ToDo", doc["name"], "status"), "Closed")

		stale = self.manager.put(url, json={"status": "Open", "modified": doc["modified"]})
		self.assertEqual(stale.status_code, 417)
		self.assertEqual(stale.json()["exc_type"], "TimestampMismatchError")
		self.assertEqual(frappe.db.get_value("ToDo", doc["name"], "status"), "Closed")

		invalid = self.manager.put(url, json={"status": "Bogus"})
		self.assertEqual(invalid.status_code, 417)
		self.assertEqual(invalid.json()["exc_type"], "ValidationError")
		self.assertTrue(any("Bogus" in m or "Status" in m for m in server_messages(invalid.json())))

		deleted = self.manager.delete(url)
		self.assertEqual(deleted.status_code, 202)
		self.assertEqual(deleted.json(), {"data": "ok"})
		self.assertFalse(frappe.db.exists("ToDo", doc["name"]))
		self.assertEqual(self.manager.get(url).status_code, 404)
		self.assertEqual(self.manager.delete(url).status_code, 404)

	def test_missing_mandatory_field_is_417(self):
		response = self.manager.post("/api/resource/ToDo", json={"status": "Open"})
		self.assertEqual(response.status_code, 417)
		self.assertEqual(response.json()["exc_type"], "MandatoryError")

	def test_other_users_documents_are_403(self):
		doc = self.manager.post("/api/resource/ToDo", json={"description": "manager only"}).json()["data"]
		url = f"/api/resource/ToDo/{doc['name']}"
		self.assertEqual(self.plain.get(url).status_code, 403)
		self.assertEqual(self.plain.put(url, json={"description": "hijacked"}).status_code, 403)
		self.assertEqual(self.plain.delete(url).status_code, 403)
		self.assertEqual(frappe.db.get_value("ToDo", doc["name"], "description"), "manager only")
		own = self.plain.post("/api/resource/ToDo", json={"description": "plain's own"})
		self.assertEqual(own.status_code, 200)
		names = [
			r["name"]
			for r in self.plain.get("/api/resource/ToDo", params={"limit_page_length": 0}).json()["data"]
		]
		self.assertIn(own.json()["data"]["name"], names)
		self.assertNotIn(doc["name"], names)
		self.assertEqual(
			self.plain.post("/api/resource/Role", json={"role_name": "Http Api Sneaky"}).status_code, 403
		)
		self.assertFalse(frappe.db.exists("Role", "Http Api Sneaky"))

	def test_password_fields_are_masked(self):
		doc = self.manager.post(
			"/api/resource/Lite Test Record", json={"title": "with secret", "secret": "s3cr3t-value"}
		).json()["data"]
		self.assertNotEqual(doc.get("secret"), "s3cr3t-value")
		read = self.manager.get(f"/api/resource/Lite Test Record/{doc['name']}").json()["data"]
		self.assertTrue(read["secret"])
		self.assertNotIn("s3cr3t", read["secret"])
		self.assertEqual(set(read["secret"]), {"*"})
		listed = self.manager.get(
			"/api/resource/Lite Test Record",
			params={"fields": json.dumps(["name", "secret"]), "filters": json.dumps({"name": doc["name"]})},
		).json()["data"]
		self.assertNotIn("s3cr3t", json.dumps(listed))
		self.assertEqual(
			frappe.get_doc("Lite Test Record", doc["name"]).get_password("secret"), "s3cr3t-value"
		)

	def test_whitelisted_method_get_post_json_and_form(self):
		query = {"doctype": "User", "fieldname": "first_name", "filters": json.dumps({"name": MANAGER})}
		got = self.manager.get("/api/method/frappe.client.get_value", params=query)
		self.assertEqual(got.status_code, 200, got.text)
		self.assertEqual(got.json()["message"], {"first_name": "http_api_manager"})
		as_form = self.manager.post("/api/method/frappe.client.get_value", data=query)
		self.assertEqual(as_form.json()["message"], {"first_name": "http_api_manager"})
		as_json = self.manager.post(
			"/api/method/frappe.client.get_value", json={**query, "filters": {"name": MANAGER}}
		)
		self.assertEqual(as_json.json()["message"], {"first_name": "http_api_manager"})

	def test_a_missing_required_argument_is_a_type_error(self):
		# as on Frappe: the call fails with TypeError (500); a System User's traceback names the argument
		response = self.manager.get("/api/method/frappe.client.get_value", params={"fieldname": "name"})
		self.assertEqual(response.status_code, 500, response.text)
		self.assertEqual(response.json()["exc_type"], "TypeError")
		self.assertIn("missing 1 required positional argument: 'doctype'", response.text)

	def test_methods_whitelisted_for_post_refuse_get(self):
		todo = self.manager.post("/api/resource/ToDo", json={"description": "method check"}).json()["data"]
		args = {
			"doctype": "ToDo",
			"name": todo["name"],
			"fieldname": "description",
			"value": "changed by GET",
		}
		refused = self.manager.get("/api/method/frappe.client.set_value", params=args)
		self.assertEqual(refused.status_code, 403)
		self.assertEqual(frappe.db.get_value("ToDo", todo["name"], "description"), "method check")
		accepted = self.manager.post(
			"/api/method/frappe.client.set_value", json={**args, "value": "changed by POST"}
		)
		self.assertEqual(accepted.status_code, 200, accepted.text)
		self.assertEqual(frappe.db.get_value("ToDo", todo["name"], "description"), "changed by POST")

	def test_non_whitelisted_functions_are_refused(self):
		response = self.manager.post(
			"/api/method/frappe.client.check_parent_permission",
			json={"parent": "ToDo", "child_doctype": "Has Role"},
		)
		self.assertEqual(response.status_code, 403)
		self.assertEqual(response.json()["exc_type"], "PermissionError")
		self.assertEqual(
			self.manager.get(
				"/api/method/frappe.delete_doc", params={"doctype": "User", "name": PLAIN}
			).status_code,
			403,
		)
		self.assertTrue(frappe.db.exists("User", PLAIN))

	def test_guest_cannot_call_methods_without_allow_guest(self):
		response = httpx.get(f"{self.base_url}/api/method/frappe.auth.get_logged_user")
		self.assertEqual(response.status_code, 403)
		self.assertEqual(self.plain.get("/api/method/frappe.auth.get_logged_user").json(), {"message": PLAIN})

	def test_tracebacks_only_for_system_managers(self):
		for client in (self.plain, self.manager):
			todo = client.post("/api/resource/ToDo", json={"description": "traceback check"}).json()["data"]
			response = client.put(f"/api/resource/ToDo/{todo['name']}", json={"status": "Bogus"})
			self.assertEqual(response.status_code, 417)
			if client is self.plain:
				self.assertNotIn("exc", response.json())
				self.assertNotIn("Traceback", response.text)
			else:
				self.assertIn("Traceback", json.loads(response.json()["exc"])[0])

	def test_upload_file(self):
		todo = self.manager.post("/api/resource/ToDo", json={"description": "with attachment"}).json()["data"]
		response = self.manager.post(
			"/api/method/upload_file",
			data={"doctype": "ToDo", "docname": todo["name"], "is_private": "1"},
			files={"file": ("notes.txt", b"uploaded over http", "text/plain")},
		)
		self.assertEqual(response.status_code, 200, response.text)
		file_doc = response.json()["message"]
		self.assertTrue(file_doc["file_url"].startswith("/private/files/"))
		self.assertEqual(file_doc["attached_to_name"], todo["name"])
		self.assertEqual(self.manager.get(file_doc["file_url"]).content, b"uploaded over http")
		self.assertEqual(httpx.get(self.base_url + file_doc["file_url"]).status_code, 403)
		frappe.delete_doc("File", file_doc["name"], force=True, ignore_permissions=True)
		frappe.db.commit()

	def test_download_file_responds_with_the_content(self):
		from frappe.utils.file_manager import save_file

		with self.set_user(MANAGER):  # a private file is for its owner (and readers of its document)
			file_doc = save_file("download-me.txt", b"download body", None, None, is_private=1)
		frappe.db.commit()
		try:
			response = self.manager.get("/api/method/download_file", params={"file_url": file_doc.file_url})
			self.assertEqual(response.status_code, 200)
			self.assertEqual(response.content, b"download body")
			self.assertIn("attachment", response.headers["content-disposition"])
			self.assertIn(os.path.basename(file_doc.file_url), response.headers["content-disposition"])
			self.assertEqual(
				self.plain.get(
					"/api/method/download_file", params={"file_url": file_doc.file_url}
				).status_code,
				403,
			)
		finally:
			frappe.delete_doc("File", file_doc.name, force=True, ignore_permissions=True)
			frappe.db.commit()

	def test_wsgi_application_picks_the_site_from_the_host(self):
		from concurrent.futures import ThreadPoolExecutor

		from frappe.app import application
		from werkzeug.test import Client

		def get(headers: dict):
			return Client(application).get("/api/method/ping", headers=headers)

		# in another thread, as a server runs it: a request has its own Frappe context
		with ThreadPoolExecutor(1) as pool:
			by_host = pool.submit(get, {"Host": frappe.local.site}).result()
			by_header = pool.submit(get, {"X-Frappe-Site-Name": frappe.local.site}).result()
			unknown = pool.submit(get, {"Host": "unknown.example.com"}).result()
		self.assertEqual(by_host.status_code, 200)
		self.assertEqual(by_host.get_json(), {"message": "pong"})
		self.assertEqual(by_header.get_json(), {"message": "pong"})
		self.assertEqual(unknown.status_code, 404)

	def test_non_whitelisted_document_methods_are_refused(self):
		doc = self.manager.post(
			"/api/resource/Lite Test Record", json={"title": "plain method", "qty": 2}
		).json()["data"]
		response = self.manager.post(
			"/api/method/run_doc_method",
			json={"dt": "Lite Test Record", "dn": doc["name"], "method": "double_qty"},
		)
		self.assertEqual(response.status_code, 403)
		response = self.manager.post(
			f"/api/resource/Lite Test Record/{doc['name']}", json={"run_method": "double_qty"}
		)
		self.assertEqual(response.status_code, 403)
		self.assertEqual(frappe.db.get_value("Lite Test Record", doc["name"], "qty"), 2)

	@unittest.skipUnless(
		has_controller_method("Lite Test Record", "add_to_qty"),
		"lite_test_app has no whitelisted controller method",
	)
	def test_run_doc_method_calls_whitelisted_controller_methods(self):
		doc = self.manager.post(
			"/api/resource/Lite Test Record", json={"title": "run method", "qty": 2}
		).json()["data"]
		response = self.manager.post(
			"/api/method/run_doc_method",
			json={
				"dt": "Lite Test Record",
				"dn": doc["name"],
				"method": "add_to_qty",
				"args": json.dumps({"amount": 3}),
			},
		)
		self.assertEqual(response.status_code, 200, response.text)
		self.assertEqual(response.json()["message"], 5)
		self.assertEqual(response.json()["docs"][0]["qty"], 5)
		via_resource = self.manager.post(
			f"/api/resource/Lite Test Record/{doc['name']}", json={"run_method": "add_to_qty", "amount": 1}
		)
		self.assertEqual(via_resource.json()["data"], 6)
		self.assertEqual(frappe.db.get_value("Lite Test Record", doc["name"], "qty"), 6)
		refused = self.manager.get(
			"/api/method/run_doc_method",
			params={"dt": "Lite Test Record", "dn": doc["name"], "method": "add_to_qty"},
		)
		self.assertEqual(refused.status_code, 403)
		self.assertEqual(
			self.plain.post(
				"/api/method/run_doc_method",
				json={"dt": "Lite Test Record", "dn": doc["name"], "method": "add_to_qty"},
			).status_code,
			403,
		)
