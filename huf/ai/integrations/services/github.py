"""GitHub tools: repositories, files, code search, issues, comments and pull requests through the GitHub
REST API (Bearer token; the service's default headers carry Accept and X-GitHub-Api-Version)."""

import base64
import re
from urllib.parse import quote

import frappe
from frappe import _

from huf.ai.integrations.client import service_client
from huf.ai.integrations.services.tool_params import cap_text, limit_of, list_arg, param, require, tool

SERVICE = "github"
REPO = re.compile(r"^[A-Za-z0-9](?:[A-Za-z0-9-]{0,38})/[A-Za-z0-9._-]{1,100}$")
STATES = ("open", "closed", "all")
FILE_LIMIT = 20000


def repo_path(repo: str, label: str = "repo") -> str:
	"""`/repos/owner/name` of a valid "owner/name" (`label`: the argument's name in messages)."""
	repo = str(require(repo, label)).strip()
	if not REPO.match(repo) or repo.split("/")[1] in (".", ".."):
		frappe.throw(
			_("{0} must be written owner/name, e.g. octocat/hello-world.").format(label),
			frappe.ValidationError,
		)
	return f"/repos/{repo}"


def _state(state: str | None) -> str:
	state = (state or "open").lower()
	if state not in STATES:
		frappe.throw(_("state must be open, closed or all."), frappe.ValidationError)
	return state


def _number(number) -> int:
	try:
		value = int(require(number, "number"))
	except (TypeError, ValueError):
		value = 0
	if value < 1:
		frappe.throw(_("number must be the issue's number, e.g. 42."), frappe.ValidationError)
	return value


def _request(method: str, path: str, settings: str | None, **kwargs):
	return service_client(SERVICE, settings).request(method, path, **kwargs)


def _issue(item: dict) -> dict:
	return {
		"number": item.get("number"),
		"title": item.get("title"),
		"state": item.get("state"),
		"url": item.get("html_url"),
		"author": (item.get("user") or {}).get("login"),
		"labels": [label.get("name") for label in item.get("labels") or [] if isinstance(label, dict)],
	}


def _pull(item: dict) -> dict:
	return {
		**_issue(item),
		"head": (item.get("head") or {}).get("ref"),
		"base": (item.get("base") or {}).get("ref"),
		"draft": bool(item.get("draft")),
	}


def github_create_issue(
	repo: str,
	title: str,
	body: str | None = None,
	labels: list | str | None = None,
	settings: str | None = None,
) -> dict:
	"""Open an issue."""
	values = {"title": require(title, "title")}
	if body:
		values["body"] = body
	if labels := list_arg(labels):
		values["labels"] = labels
	return _issue(_request("POST", repo_path(repo) + "/issues", settings, json=values))


def github_list_issues(
	repo: str, state: str | None = None, limit: int | None = None, settings: str | None = None
) -> dict:
	"""Issues of a repository, newest first (pull requests left out)."""
	params = {"state": _state(state), "per_page": limit_of(limit, default=20)}
	items = _request("GET", repo_path(repo) + "/issues", settings, params=params)
	return {"issues": [_issue(i) for i in items or [] if isinstance(i, dict) and "pull_request" not in i]}


def github_comment_on_issue(repo: str, number: int, body: str, settings: str | None = None) -> dict:
	"""Comment on an issue or a pull request."""
	path = f"{repo_path(repo)}/issues/{_number(number)}/comments"
	answer = _request("POST", path, settings, json={"body": require(body, "body")})
	return {"comment_id": answer.get("id"), "url": answer.get("html_url")}


def github_create_pull_request(
	repo: str, title: str, head: str, base: str, body: str | None = None, settings: str | None = None
) -> dict:
	"""Open a pull request merging `head` into `base`."""
	values = {"title": require(title, "title"), "head": require(head, "head"), "base": require(base, "base")}
	if body:
		values["body"] = body
	return _pull(_request("POST", repo_path(repo) + "/pulls", settings, json=values))


def github_list_pull_requests(
	repo: str, state: str | None = None, limit: int | None = None, settings: str | None = None
) -> dict:
	"""Pull requests of a repository, newest first."""
	params = {"state": _state(state), "per_page": limit_of(limit, default=20)}
	items = _request("GET", repo_path(repo) + "/pulls", settings, params=params)
	return {"pull_requests": [_pull(i) for i in items or [] if isinstance(i, dict)]}


def _repo(item: dict) -> dict:
	return {
		"full_name": item.get("full_name"),
		"description": item.get("description"),
		"private": bool(item.get("private")),
		"default_branch": item.get("default_branch"),
		"language": item.get("language"),
		"stars": item.get("stargazers_count"),
		"open_issues": item.get("open_issues_count"),
		"updated_at": item.get("updated_at"),
		"url": item.get("html_url"),
	}


def github_list_repos(limit: int | None = None, settings: str | None = None) -> dict:
	"""Repositories the token's user owns or may access, most recently updated first."""
	params = {"sort": "updated", "per_page": limit_of(limit, default=30)}
	items = _request("GET", "/user/repos", settings, params=params)
	return {"repositories": [_repo(i) for i in items or [] if isinstance(i, dict)]}


def github_get_repo(repo_name: str, settings: str | None = None) -> dict:
	"""The details of one repository."""
	return _repo(_request("GET", repo_path(repo_name, "repo_name"), settings))


def _file_path(path: str) -> str:
	"""A repository path, each segment URL-quoted; `..` and empty segments are refused."""
	segments = str(require(path, "path")).strip().strip("/").split("/")
	if any(segment in ("", ".", "..") for segment in segments):
		frappe.throw(
			_("path must be a file path in the repository, e.g. src/app.py."), frappe.ValidationError
		)
	return "/".join(quote(segment, safe="") for segment in segments)


def github_get_file(repo_name: str, path: str, ref: str | None = None, settings: str | None = None) -> dict:
	"""The text of a file (capped at 20,000 characters), or the entries of a directory."""
	params = {"ref": str(ref)} if ref else None
	contents = f"{repo_path(repo_name, 'repo_name')}/contents/{_file_path(path)}"
	found = _request("GET", contents, settings, params=params)
	if isinstance(found, list):
		return {
			"type": "dir",
			"path": str(path).strip("/"),
			"entries": [{"name": e.get("name"), "type": e.get("type"), "path": e.get("path")} for e in found][
				:200
			],
		}
	content, binary = found.get("content") or "", False
	if found.get("encoding") == "base64":
		data = base64.b64decode(content)
		try:
			content = data.decode("utf-8")
		except UnicodeDecodeError:
			content, binary = "", True
	content, truncated = cap_text(content, FILE_LIMIT)
	return {
		"type": found.get("type"),
		"path": found.get("path"),
		"size": found.get("size"),
		"sha": found.get("sha"),
		"url": found.get("html_url"),
		"binary": binary,
		"content": content,
		"truncated": truncated,
	}


def github_search_code(query: str, limit: int | None = None, settings: str | None = None) -> dict:
	"""Code matching a GitHub code search query (e.g. 'login repo:octocat/hello-world language:python')."""
	params = {"q": str(require(query, "query")), "per_page": limit_of(limit, default=20)}
	found = _request("GET", "/search/code", settings, params=params)
	return {
		"total_count": found.get("total_count"),
		"items": [
			{
				"name": i.get("name"),
				"path": i.get("path"),
				"repository": (i.get("repository") or {}).get("full_name"),
				"url": i.get("html_url"),
			}
			for i in found.get("items") or []
		][: params["per_page"]],
	}


_PATH = "huf.ai.integrations.services.github."
_REPO = param("repo", "string", "Repository as owner/name, e.g. octocat/hello-world.", 1)
_STATE = {**param("state", "string", "open (default), closed or all."), "options": "\n".join(STATES)}
_LIMIT = param("limit", "integer", "How many at most (default 20, at most 50).")
_REPO_NAME = param("repo_name", "string", "Repository as owner/name, e.g. octocat/hello-world.", 1)
TOOLS = [
	tool(
		"github_list_repos",
		_PATH + "github_list_repos",
		"List the GitHub repositories the connected account owns or may access (recently updated first).",
		[param("limit", "integer", "How many at most (default 30, at most 50).")],
	),
	tool(
		"github_get_repo",
		_PATH + "github_get_repo",
		"Get the details of a GitHub repository.",
		[_REPO_NAME],
	),
	tool(
		"github_get_file",
		_PATH + "github_get_file",
		"Read a file of a GitHub repository (or list a directory).",
		[
			_REPO_NAME,
			param("path", "string", "File path in the repository, e.g. src/app.py.", 1),
			param("ref", "string", "Branch, tag or commit; default the default branch."),
		],
	),
	tool(
		"github_search_code",
		_PATH + "github_search_code",
		"Search code on GitHub (GitHub code search syntax, e.g. 'login repo:octocat/hello-world').",
		[param("query", "string", "Code search query.", 1), _LIMIT],
	),
	tool(
		"github_create_issue",
		_PATH + "github_create_issue",
		"Create an issue in a GitHub repository.",
		[
			_REPO,
			param("title", "string", "Issue title.", 1),
			param("body", "string", "Issue text (Markdown)."),
			param("labels", "array", "Label names to add."),
		],
	),
	tool(
		"github_list_issues",
		_PATH + "github_list_issues",
		"List the issues of a GitHub repository.",
		[_REPO, _STATE, _LIMIT],
	),
	tool(
		"github_comment_on_issue",
		_PATH + "github_comment_on_issue",
		"Comment on a GitHub issue or pull request.",
		[
			_REPO,
			param("number", "integer", "Issue or pull request number.", 1),
			param("body", "string", "Comment (Markdown).", 1),
		],
	),
	tool(
		"github_create_pull_request",
		_PATH + "github_create_pull_request",
		"Open a pull request in a GitHub repository.",
		[
			_REPO,
			param("title", "string", "Pull request title.", 1),
			param("head", "string", "Branch with the changes (owner:branch for a fork).", 1),
			param("base", "string", "Branch to merge into, e.g. main.", 1),
			param("body", "string", "Description (Markdown)."),
		],
	),
	tool(
		"github_list_pull_requests",
		_PATH + "github_list_pull_requests",
		"List the pull requests of a GitHub repository.",
		[_REPO, _STATE, _LIMIT],
	),
]
