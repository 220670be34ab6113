"""The checks behind `huf.api.health`, each cheap and short: they run side by side, none waits longer
than `huf_health_timeout` seconds (site config, default 3).

- providers: every AI Provider an enabled Agent uses answers HTTP at its API base (or the vendor's
  public endpoint); nothing is sent but a bare GET, so no key travels and none is in the answer.
- mcp_servers: every enabled MCP Server answers HTTP at its URL (no credentials sent).
- queues: jobs of this site waiting or running, per job queue.
- stuck_runs: Agent Runs Queued or Started for more than `huf_health_stuck_minutes` (default 30).
- scheduler: enabled, and its last tick (`record_scheduler_tick`, every minute) is recent.
- knowledge: inputs and chunks indexed per Knowledge Source, and its status.

Answers name records, never URLs, keys or raw error texts (which could carry them).
"""

import time
from concurrent.futures import ThreadPoolExecutor

import frappe
from frappe import _
from frappe.utils import add_to_date, cint, flt, now_datetime

from huf.ai.providers.model_names import provider_prefix
from huf.huf.capabilities import has_capability

DEFAULT_TIMEOUT = 3.0
DEFAULT_STUCK_MINUTES = 30
SCHEDULER_TICK_KEY = "huf:scheduler_tick"
SCHEDULER_LATE_SECONDS = 5 * 60  # a tick older than this means the scheduler stopped
MANAGER_ROLES = {"System Manager", "Huf Manager"}
# The public endpoints of providers used without an API base (a GET there proves DNS, TLS and HTTP).
VENDOR_ENDPOINTS = {
	"openai": "https://api.openai.com/v1/models",
	"anthropic": "https://api.anthropic.com/v1/models",
	"gemini": "https://generativelanguage.googleapis.com/v1beta/models",
	"mistral": "https://api.mistral.ai/v1/models",
	"groq": "https://api.groq.com/openai/v1/models",
	"openrouter": "https://openrouter.ai/api/v1/models",
	"deepseek": "https://api.deepseek.com/models",
	"xai": "https://api.x.ai/v1/models",
	"perplexity": "https://api.perplexity.ai",
	"together_ai": "https://api.together.xyz/v1/models",
	"cohere": "https://api.cohere.com/v1/models",
}


def may_see_details() -> bool:
	"""Whether the caller sees the checks: System Managers, Huf Managers, `system.settings.manage`."""
	user = frappe.session.user
	if not user or user == "Guest":
		return False
	return bool(MANAGER_ROLES & set(frappe.get_roles(user))) or has_capability(user, "system.settings.manage")


def record_scheduler_tick() -> None:
	"""Scheduler job (every minute): remember that the scheduler runs."""
	frappe.cache().set_value(SCHEDULER_TICK_KEY, time.time())


def run_checks() -> dict:
	"""Every check; `ok` is false with one readable line per problem in `problems` when something is down."""
	timeout = flt(frappe.conf.get("huf_health_timeout")) or DEFAULT_TIMEOUT
	targets = {"providers": provider_targets(), "mcp_servers": mcp_targets()}
	probes = [(kind, name, url) for kind, found in targets.items() for name, url in found]
	with ThreadPoolExecutor(max_workers=min(16, len(probes) or 1)) as pool:
		answers = pool.map(lambda probe: probe_http(probe[2], timeout), probes)
		local = {
			"queues": _guarded(queue_depths),
			"stuck_runs": _guarded(stuck_runs),
			"scheduler": _guarded(scheduler_state),
			"knowledge": _guarded(knowledge_indexes),
		}
		reached = {"providers": [], "mcp_servers": []}
		for (kind, name, _url), answer in zip(probes, answers, strict=True):
			reached[kind].append({"name": name, **answer})
	report = {**reached, **local}
	problems = problems_of(report)
	return {"ok": not problems, "problems": problems, "checked_at": str(now_datetime()), **report}


def _guarded(check) -> dict:
	try:
		return check()
	except Exception as exc:
		frappe.log_error(title=f"Huf health check {check.__name__} failed")
		return {"error": _("The check failed ({0}); see the Error Log.").format(type(exc).__name__)}


# --- reachability ----------------------------------------------------------------------------


def provider_targets() -> list[tuple[str, str]]:
	"""(provider, URL to probe) of the AI Providers enabled Agents use."""
	used = set(frappe.get_all("Agent", filters={"disabled": 0}, pluck="provider"))
	rows = frappe.get_all(
		"AI Provider",
		filters={"name": ["in", list(used - {None, ""}) or [""]]},
		fields=["name", "api_base", "provider_type"],
	)
	targets = []
	for row in sorted(rows, key=lambda r: r.name):
		if row.api_base:
			targets.append((row.name, row.api_base.rstrip("/") + "/models"))
		elif VENDOR_ENDPOINTS.get(provider_prefix(row.provider_type or row.name) or ""):
			targets.append((row.name, VENDOR_ENDPOINTS[provider_prefix(row.provider_type or row.name)]))
	return targets


def mcp_targets() -> list[tuple[str, str]]:
	"""(MCP Server, its URL) of the enabled servers."""
	rows = frappe.get_all(
		"MCP Server", filters={"enabled": 1}, fields=["name", "server_url"], order_by="name asc"
	)
	return [(row.name, row.server_url) for row in rows if row.server_url]


def probe_http(url: str, timeout: float) -> dict:
	"""`{"reachable", "status_code" | "error"}`: any HTTP answer counts (a 401 without a key is expected)."""
	import httpx

	try:
		with httpx.Client(timeout=timeout, follow_redirects=False) as client:
			with client.stream("GET", url, headers={"Accept": "application/json"}) as response:
				return {"reachable": True, "status_code": response.status_code}
	except httpx.TimeoutException:
		error = "timed out"
	except httpx.ConnectError:
		error = "could not connect"
	except (httpx.HTTPError, ValueError):
		error = "no HTTP answer"
	return {"reachable": False, "error": error}


# --- local state -----------------------------------------------------------------------------


def queue_depths() -> dict:
	"""{queue: jobs of this site waiting or running}."""
	from frappe.utils.background_jobs import get_jobs, get_queue_list

	site = frappe.local.site
	return {queue: len(get_jobs(site=site, queue=queue).get(site) or []) for queue in get_queue_list()}


def stuck_runs() -> dict:
	"""Agent Runs Queued or Started for longer than `huf_health_stuck_minutes`: their count and first names."""
	minutes = cint(frappe.conf.get("huf_health_stuck_minutes")) or DEFAULT_STUCK_MINUTES
	filters = {
		"status": ["in", ["Queued", "Started"]],
		"modified": ["<", add_to_date(now_datetime(), minutes=-minutes)],
	}
	names = frappe.get_all("Agent Run", filters=filters, pluck="name", order_by="modified asc", limit=10)
	count = frappe.db.count("Agent Run", filters) if len(names) == 10 else len(names)
	return {"count": count, "older_than_minutes": minutes, "runs": names}


def scheduler_state() -> dict:
	"""Whether the scheduler is enabled and when it last ran Huf's every-minute job."""
	from frappe.utils.scheduler import is_scheduler_inactive

	last = flt(frappe.cache().get_value(SCHEDULER_TICK_KEY)) or None
	age = round(time.time() - last) if last else None
	enabled = not is_scheduler_inactive(verbose=False)
	return {
		"enabled": enabled,
		"seconds_since_tick": age,
		"alive": bool(enabled and age is not None and age < SCHEDULER_LATE_SECONDS),
	}


def knowledge_indexes() -> list[dict]:
	"""Inputs and chunks indexed per enabled Knowledge Source, with its status."""
	return frappe.get_all(
		"Knowledge Source",
		filters={"disabled": 0},
		fields=["name", "status", "storage_mode", "total_inputs", "total_chunks", "last_indexed_at"],
		order_by="name asc",
	)


def problems_of(report: dict) -> list[str]:
	"""One readable line per problem found in `report`."""
	problems = []
	for kind, label in (("providers", _("AI Provider")), ("mcp_servers", _("MCP Server"))):
		for item in report[kind]:
			if not item["reachable"]:
				problems.append(
					_("{0} {1} is not reachable ({2}).").format(label, item["name"], item["error"])
				)
	for key in ("queues", "stuck_runs", "scheduler", "knowledge"):
		if isinstance(report[key], dict) and report[key].get("error"):
			problems.append(_("The {0} check failed.").format(key.replace("_", " ")))
	stuck = report["stuck_runs"].get("count") or 0  # an error answer has no count
	if stuck:
		problems.append(
			_("{0} agent runs are queued or started for more than {1} minutes.").format(
				stuck, report["stuck_runs"]["older_than_minutes"]
			)
		)
	scheduler = report["scheduler"]
	if "enabled" in scheduler:
		if not scheduler["enabled"]:
			problems.append(_("The scheduler is disabled, paused or the site is in maintenance mode."))
		elif scheduler["seconds_since_tick"] is None:
			problems.append(_("The scheduler has not run Huf's jobs yet."))
		elif not scheduler["alive"]:
			problems.append(
				_("The scheduler last ran {0} minutes ago.").format(scheduler["seconds_since_tick"] // 60)
			)
	return problems
