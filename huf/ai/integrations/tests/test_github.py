"""GitHub tools against a scripted GitHub REST API."""

import base64

import frappe

from huf.ai.integrations.services.github import (
	github_comment_on_issue,
	github_create_issue,
	github_create_pull_request,
	github_get_file,
	github_get_repo,
	github_list_issues,
	github_list_pull_requests,
	github_list_repos,
	github_search_code,
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

	def test_list_repos_and_get_one(self):
		repo = {
			"full_name": "acme/app",
			"description": "The app",
			"private": True,
			"default_branch": "main",
			"language": "Python",
			"stargazers_count": 3,
			"open_issues_count": 2,
			"updated_at": "2026-12-01T00:00:00Z",
			"html_url": "https://github.com/acme/app",
			"owner": {"login": "acme"},
		}
		self.api.queue([repo], repo)
		listed = github_list_repos(limit=5)
		got = github_get_repo(repo_name="acme/app")
		summary = {
			"full_name": "acme/app",
			"description": "The app",
			"private": True,
			"default_branch": "main",
			"language": "Python",
			"stars": 3,
			"open_issues": 2,
			"updated_at": "2026-12-01T00:00:00Z",
			"url": "https://github.com/acme/app",
		}
		self.assertEqual((listed, got), ({"repositories": [summary]}, summary))
		list_, get = self.api.requests
		self.assertEqual((list_["method"], list_["path"]), ("GET", "/user/repos"))
		self.assertEqual(list_["query"], {"sort": "updated", "per_page": "5"})
		self.assertEqual((get["method"], get["path"]), ("GET", "/repos/acme/app"))
		self.assert_github_headers(get)

	def test_get_file_decodes_the_content(self):
		text = "print('héllo')\n"
		self.api.queue(
			{
				"type": "file",
				"path": "src/app.py",
				"size": 16,
				"sha": "abc",
				"html_url": "https://github.com/acme/app/blob/main/src/app.py",
				"encoding": "base64",
				"content": base64.b64encode(text.encode()).decode(),
			}
		)
		result = github_get_file(repo_name="acme/app", path="/src/app.py", ref="main")
		self.assertEqual((result["content"], result["binary"], result["truncated"]), (text, False, False))
		[request] = self.api.requests
		self.assertEqual(request["path"], "/repos/acme/app/contents/src/app.py")
		self.assertEqual(request["query"], {"ref": "main"})
		self.assert_github_headers(request)

	def test_get_file_lists_a_directory_and_caps_big_or_binary_files(self):
		self.api.queue(
			[{"name": "app.py", "type": "file", "path": "src/app.py"}],
			{
				"type": "file",
				"path": "big.txt",
				"encoding": "base64",
				"content": base64.b64encode(b"a" * 30000).decode(),
			},
			{
				"type": "file",
				"path": "logo.png",
				"encoding": "base64",
				"content": base64.b64encode(b"\x89PNG\xff\xfe").decode(),
			},
		)
		listing = github_get_file(repo_name="acme/app", path="src")
		self.assertEqual(listing["entries"], [{"name": "app.py", "type": "file", "path": "src/app.py"}])
		big = github_get_file(repo_name="acme/app", path="big.txt")
		self.assertEqual((len(big["content"]), big["truncated"]), (20000, True))
		binary = github_get_file(repo_name="acme/app", path="logo.png")
		self.assertEqual((binary["content"], binary["binary"]), ("", True))

	def test_get_file_refuses_paths_that_leave_the_repository(self):
		for path in ("../../user", "src/../../../orgs", "a//b", ""):
			with self.assertRaises(frappe.ValidationError):
				github_get_file(repo_name="acme/app", path=path)
		with self.assertRaisesRegex(frappe.ValidationError, "repo_name must be written owner/name"):
			github_get_file(repo_name="acme", path="x")
		self.assertEqual(self.api.requests, [])
		self.api.queue({"type": "file", "path": "a b/c#d.md", "content": ""})
		github_get_file(repo_name="acme/app", path="a b/c#d.md")
		self.assertEqual(self.api.requests[0]["path"], "/repos/acme/app/contents/a%20b/c%23d.md")

	def test_search_code(self):
		self.api.queue(
			{
				"total_count": 1,
				"items": [
					{
						"name": "auth.py",
						"path": "src/auth.py",
						"html_url": "https://github.com/acme/app/blob/main/src/auth.py",
						"repository": {"full_name": "acme/app"},
					}
				],
			}
		)
		result = github_search_code(query="login repo:acme/app")
		self.assertEqual(
			result,
			{
				"total_count": 1,
				"items": [
					{
						"name": "auth.py",
						"path": "src/auth.py",
						"repository": "acme/app",
						"url": "https://github.com/acme/app/blob/main/src/auth.py",
					}
				],
			},
		)
		[request] = self.api.requests
		self.assertEqual((request["method"], request["path"]), ("GET", "/search/code"))
		self.assertEqual(request["query"], {"q": "login repo:acme/app", "per_page": "20"})
		self.assert_github_headers(request)
