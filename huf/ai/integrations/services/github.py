"""GitHub tools: issues, comments and pull requests through the GitHub REST API (Bearer token; the
service's default headers carry Accept and X-GitHub-Api-Version)."""

import re

import frappe
from frappe import _

from huf.ai.integrations.client import service_client
from huf.ai.integrations.services.tool_params import limit_of, list_arg, param, require, tool

SERVICE = "github"
REPO = re.compile(r"^[A-Za-z0-9](?:[A-Za-z0-9-]{0,38})/[A-Za-z0-9._-]{1,100}$")
STATES = ("open", "closed", "all")


def repo_path(repo: str) -> str:
	"""`/repos/owner/name` of a valid "owner/name"."""
	repo = str(require(repo, "repo")).strip()
	if not REPO.match(repo) or repo.split("/")[1] in (".", ".."):
		frappe.throw(_("repo must be written owner/name, e.g. octocat/hello-world."), frappe.ValidationError)
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


_PATH = "huf.ai.integrations.services.github."
_REPO = param("repo", "string", "Repository as owner/name, e.g. octocat/hello-world.", 1)
_STATE = {**param("state", "string", "open (default), closed or all."), "options": "\n".join(STATES)}
_LIMIT = param("limit", "integer", "How many at most (default 20, at most 50).")
TOOLS = [
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
