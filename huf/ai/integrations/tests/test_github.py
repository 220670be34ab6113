"""GitHub tools against a scripted GitHub REST API."""

import frappe

from huf.ai.integrations.services.github import (
	github_comment_on_issue,
	github_create_issue,
	github_create_pull_request,
	github_list_issues,
	github_list_pull_requests,
)
from huf.tests.support.http_service import reply
from huf.tests.support.service_tools import ServiceToolTestCase

TOKEN = "github_pat_11AAtestsecret0000"


def issue(number: int, **values) -> dict:
	return {
		"number": number,
		"title": f"Issue {number}",
		"state": "open",
		"html_url": f"https://github.com/acme/app/issues/{number}",
		"user": {"login": "octocat"},
		"labels": [{"name": "bug"}],
		"body": "x" * 10000,
		**values,
	}


class TestGitHubTools(ServiceToolTestCase):
	SERVICE = "github"
	CREDENTIALS = {"token": TOKEN}

	def assert_github_headers(self, request: dict) -> None:
		self.assertEqual(request["headers"]["authorization"], f"Bearer {TOKEN}")
		self.assertEqual(request["headers"]["accept"], "application/vnd.github+json")
		self.assertEqual(request["headers"]["x-github-api-version"], "2022-11-28")

	def test_create_issue(self):
		self.api.on("POST", "/repos/acme/app/issues", reply(issue(7, title="Login fails"), status=201))
		result = github_create_issue(repo="acme/app", title="Login fails", body="Steps...", labels="bug, p1")
		self.assertEqual(
			result,
			{
				"number": 7,
				"title": "Login fails",
				"state": "open",
				"url": "https://github.com/acme/app/issues/7",
				"author": "octocat",
				"labels": ["bug"],
			},
		)
		[request] = self.api.requests
		self.assertEqual(request["method"], "POST")
		self.assert_github_headers(request)
		self.assertEqual(
			request["json"], {"title": "Login fails", "body": "Steps...", "labels": ["bug", "p1"]}
		)

	def test_list_issues_leaves_out_pull_requests(self):
		self.api.queue([issue(1), issue(2, pull_request={"url": "..."}), issue(3, state="closed")])
		result = github_list_issues(repo="acme/app", state="all", limit=5)
		[request] = self.api.requests
		self.assertEqual((request["method"], request["path"]), ("GET", "/repos/acme/app/issues"))
		self.assertEqual(request["query"], {"state": "all", "per_page": "5"})
		self.assert_github_headers(request)
		self.assertEqual([i["number"] for i in result["issues"]], [1, 3])
		self.assertNotIn("body", result["issues"][0])

	def test_comment_on_issue(self):
		self.api.queue(
			reply({"id": 99, "html_url": "https://github.com/acme/app/issues/7#issuecomment-99"}, status=201)
		)
		result = github_comment_on_issue(repo="acme/app", number="7", body="Fixed in #8")
		self.assertEqual(
			result, {"comment_id": 99, "url": "https://github.com/acme/app/issues/7#issuecomment-99"}
		)
		[request] = self.api.requests
		self.assertEqual((request["method"], request["path"]), ("POST", "/repos/acme/app/issues/7/comments"))
		self.assertEqual(request["json"], {"body": "Fixed in #8"})
		self.assert_github_headers(request)

	def test_create_and_list_pull_requests(self):
		pull = issue(8, head={"ref": "fix-login"}, base={"ref": "main"}, draft=False)
		pull["html_url"] = "https://github.com/acme/app/pull/8"
		self.api.queue(reply(pull, status=201), [pull])
		created = github_create_pull_request(
			repo="acme/app", title="Fix login", head="fix-login", base="main"
		)
		self.assertEqual(
			(created["number"], created["url"], created["head"], created["base"]),
			(8, pull["html_url"], "fix-login", "main"),
		)
		listed = github_list_pull_requests(repo="acme/app")
		self.assertEqual([p["number"] for p in listed["pull_requests"]], [8])
		create, list_ = self.api.requests
		self.assertEqual((create["method"], create["path"]), ("POST", "/repos/acme/app/pulls"))
		self.assertEqual(create["json"], {"title": "Fix login", "head": "fix-login", "base": "main"})
		self.assertEqual((list_["method"], list_["path"]), ("GET", "/repos/acme/app/pulls"))
		self.assertEqual(list_["query"], {"state": "open", "per_page": "20"})
		self.assert_github_headers(list_)

	def test_invalid_repo_is_refused_before_any_request(self):
		for repo in ("acme", "acme/app/extra", "../etc", "acme/..", "acme/app?x=1"):
			with self.assertRaises(frappe.ValidationError) as caught:
				github_list_issues(repo=repo)
			self.assertIn("owner/name", str(caught.exception))
		self.assertEqual(self.api.requests, [])

	def test_github_error_is_readable(self):
		self.api.queue(
			reply({"message": "Validation Failed", "errors": [{"code": "missing_field"}]}, status=422)
		)
		with self.assertRaises(frappe.ValidationError) as caught:
			github_create_issue(repo="acme/app", title="x")
		self.assertIn("Validation Failed", str(caught.exception))
		self.assert_no_secret(str(caught.exception))

	def test_limit_is_capped_at_50(self):
		self.api.queue([])
		github_list_pull_requests(repo="acme/app", state="closed", limit=500)
		self.assertEqual(self.api.requests[0]["query"], {"state": "closed", "per_page": "50"})
