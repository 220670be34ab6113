"""Budgets and the kill switch (docs/budgets.md): who may still spend, checked at the door and before each model call.

- Spend of a Huf Budget = the sum of `total_cost` of the Agent Runs it covers (all, one agent's, or those
  acting as one user) created in its period (the day or month in the site's time zone): one query, no
  second ledger. A run records its cost so far after each model call (`record_cost`), so runs in flight
  count too, across worker processes.
- `check_can_start` (front door): refuse a run over any applicable budget (429, BudgetExceeded) or
  while Agent Settings' Pause All Runs is ticked (423, RunsPaused), before anything is written.
- `stop_reason` (the loop, before each model call): why a running run must stop now, or None.
- The bound: a budget is checked before every model call and each call's cost is stored before the
  next check, so spend can pass a limit by at most one model call per run in flight at that moment.
- What every check reads (the Pause All Runs flag and the enabled budgets) is kept in the cache as one key,
  `huf:spend_guard` (`_guard`): one Redis round trip per check instead of two queries. It is dropped when a
  Huf Budget or Agent Settings changes (now, and again when that transaction ends) and lives at most
  `GUARD_SECONDS`; a check never keeps it for the rest of the request, so a running run sees a pause at its
  next model call whichever process ticked it.
- Notifications: once per period for the warning threshold and once when a budget stops runs
  (`warned_period` / `stopped_period`, claimed under the budget's row lock by a job of their own).
"""

from dataclasses import dataclass
from datetime import datetime

import frappe
from frappe import _
from frappe.utils import add_days, add_months, cint, flt, get_first_day, getdate, now_datetime

from huf.huf import cache_keys, notifications

STOPPED_BY = "stopped_by"  # runtime context key of a run stopped by a budget or the kill switch
DASHBOARD_PATH = "/huf/budgets"
GUARD_KEY = "huf:spend_guard"
GUARD_SECONDS = 60  # the longest a change made without the controllers (e.g. SQL) goes unseen
BUDGET_FIELDS = ("name", "scope", "agent", "user", "period", "limit_usd", "warning_percent")


class BudgetExceeded(frappe.TooManyRequestsError):
	"""A budget that applies to the run is used up for its period (HTTP 429)."""


class RunsPaused(frappe.ValidationError):
	"""Agent Settings' Pause All Runs is ticked (HTTP 423 Locked)."""

	http_status_code = 423


@dataclass
class Standing:
	"""A budget in its current period: what was spent of its limit and when the period ends."""

	name: str
	scope: str
	period: str
	limit: float
	warning_percent: float
	spend: float
	period_key: str
	resets_at: datetime

	@property
	def percent(self) -> float:
		return round(100 * self.spend / self.limit, 2) if self.limit else 100.0

	@property
	def used_up(self) -> bool:
		return round(self.spend, 9) >= round(self.limit, 9)  # sums of float costs: 5 x 0.02 is 0.1

	def as_dict(self) -> dict:
		return {
			"name": self.name,
			"scope": self.scope,
			"period": self.period,
			"limit_usd": self.limit,
			"warning_percent": self.warning_percent,
			"spend": round(self.spend, 6),
			"percent": self.percent,
			"resets_at": str(self.resets_at),
		}


# --- what the checks read ----------------------------------------------------------------------


def _guard() -> dict:
	"""{"paused": bool, "budgets": [the enabled budgets]}, from the cache or else the database."""
	frappe.local.cache.pop(frappe.cache.make_key(GUARD_KEY), None)  # never the copy this request read
	guard = frappe.cache.get_value(GUARD_KEY, expires=True)
	if guard is None:
		rows = frappe.get_all(
			"Huf Budget", filters={"enabled": 1}, fields=list(BUDGET_FIELDS), order_by="name asc"
		)
		guard = {
			"paused": bool(cint(frappe.db.get_single_value("Agent Settings", "pause_all_runs"))),
			"budgets": [dict(row) for row in rows],
		}
		frappe.cache.set_value(GUARD_KEY, guard, expires_in_sec=GUARD_SECONDS)
	return guard


def clear_guard() -> None:
	"""Drop the cached guard (Huf Budget and Agent Settings call it on every change)."""
	cache_keys.forget(GUARD_KEY)


# --- the kill switch ----------------------------------------------------------------------------


def is_paused() -> bool:
	"""Whether Pause All Runs is ticked (every process sees a flip at its next check)."""
	return _guard()["paused"]


def check_not_paused() -> None:
	"""Refuse (423) while Pause All Runs is ticked."""
	if is_paused():
		frappe.throw(paused_message(), RunsPaused, title=_("Runs Paused"))


def paused_message() -> str:
	return _("All agent runs are paused (Agent Settings: Pause All Runs). A Huf Manager can resume them.")


def set_paused(paused: bool) -> dict:
	"""Tick or untick Pause All Runs as the engine (the caller checked who may); returns the switch."""
	settings = frappe.get_single("Agent Settings")
	settings.flags.ignore_permissions = True  # the engine's write: Paused By / Paused At are set by it
	settings.pause_all_runs = 1 if paused else 0
	settings.save()
	return switch_state()


def switch_state() -> dict:
	row = frappe.db.get_singles_dict("Agent Settings")
	return {
		"paused": bool(cint(row.get("pause_all_runs"))),
		"paused_by": row.get("paused_by"),
		"paused_at": str(row.get("paused_at")) if row.get("paused_at") else None,
	}


# --- periods and spend --------------------------------------------------------------------------


def period_window(period: str, moment: datetime | None = None) -> tuple[datetime, datetime, str]:
	"""(start, end, key) of the Day or Month around `moment` (default now, in the site's time zone)."""
	moment = moment or now_datetime()
	day = getdate(moment)
	if period == "Day":
		start, end, key = day, add_days(day, 1), day.isoformat()
	else:
		start = get_first_day(day)
		end, key = add_months(start, 1), start.strftime("%Y-%m")
	return datetime.combine(start, datetime.min.time()), datetime.combine(end, datetime.min.time()), key


def spend_of(budget: dict, moment: datetime | None = None) -> Standing:
	"""The budget's spend in its current period: one indexed query on Agent Run."""
	start, end, key = period_window(budget["period"], moment)
	condition, values = "", [start, end]
	if budget["scope"] == "Agent":
		condition, values = " and agent = %s", [*values, budget["agent"]]
	elif budget["scope"] == "User":
		condition, values = " and user = %s", [*values, budget["user"]]
	rows = frappe.db.sql(
		"select sum(total_cost) from `tabAgent Run` where creation >= %s and creation < %s" + condition,
		values,
	)
	return Standing(
		budget["name"],
		budget["scope"],
		budget["period"],
		flt(budget["limit_usd"]),
		flt(budget["warning_percent"]) or 80.0,
		flt(rows[0][0] if rows else 0),
		key,
		end,
	)


def applicable(agent: str | None, user: str | None, guard: dict | None = None) -> list[dict]:
	"""The enabled budgets that cover a run of `agent` acting as `user`."""
	return [
		frappe._dict(row)
		for row in (guard or _guard())["budgets"]
		if row["scope"] == "Site"
		or (row["scope"] == "Agent" and row["agent"] and row["agent"] == agent)
		or (row["scope"] == "User" and row["user"] and row["user"] == user)
	]


def used_up(agent: str | None, user: str | None, guard: dict | None = None) -> Standing | None:
	"""The first used-up budget covering a run of `agent` as `user` (warning those past their threshold)."""
	for budget in applicable(agent, user, guard):
		standing = spend_of(budget)
		if standing.used_up:
			notify_once(standing, "stopped_period")
			return standing
		if standing.percent >= standing.warning_percent:
			notify_once(standing, "warned_period")
	return None


def exceeded_message(standing: Standing) -> str:
	return _("Budget {0} ({1} limit of {2} USD) is used up: {3} USD spent. It resets at {4}.").format(
		standing.name, _(standing.period), standing.limit, round(standing.spend, 6), standing.resets_at
	)


# --- the checks ---------------------------------------------------------------------------------


def check_can_start(agent: str | None, user: str | None) -> None:
	"""Refuse a run of `agent` as `user` while runs are paused (423) or a budget is used up (429)."""
	reason = stop_reason(agent, user)
	if reason is not None:
		kind, message = reason
		if kind == "pause":
			frappe.throw(message, RunsPaused, title=_("Runs Paused"))
		frappe.throw(message, BudgetExceeded, title=_("Budget Used Up"))


def stop_reason(agent: str | None, user: str | None) -> tuple[str, str] | None:
	"""("pause" | "budget", message) when a run must not start or go on to its next model call, else None."""
	guard = _guard()
	if guard["paused"]:
		return "pause", paused_message()
	standing = used_up(agent, user, guard)
	if standing is not None:
		return "budget", exceeded_message(standing)
	return None


def record_cost(run: str, cost: float, agent: str | None, user: str | None) -> None:
	"""Store a running run's cost so far (committed), so every process's budget checks count it; not
	needed while no budget covers the run (its cost is stored with its end)."""
	if not applicable(agent, user):
		return
	frappe.db.sql("update `tabAgent Run` set total_cost = %s where name = %s", (flt(cost), run))
	frappe.db.commit()


def stopped_by_limit(run: str | None) -> bool:
	"""Whether the Agent Run `run` ended because of a budget or the kill switch (not a failure of its own)."""
	if not run:
		return False
	context = frappe.db.get_value("Agent Run", run, "runtime_context")
	try:
		return bool(frappe.parse_json(context or "{}").get(STOPPED_BY))
	except Exception:
		return False


# --- notifications ------------------------------------------------------------------------------


def notify_once(standing: Standing, marker: str) -> None:
	"""Tell the budget's owner (and its user) once per period that it is near (`warned_period`) or at
	(`stopped_period`) its limit. Sent by a job of its own (`send_notice`): the check runs inside whatever
	transaction started the run (a document's save, a refused request), which must neither be committed
	early nor take the claim with it when it rolls back."""
	if frappe.db.get_value("Huf Budget", standing.name, marker) == standing.period_key:
		return  # the common case: already told, no job
	frappe.enqueue(
		"huf.ai.runtime.budgets.send_notice",
		queue="short",
		job_id=f"huf-budget-notice::{standing.name}::{marker}::{standing.period_key}",
		deduplicate=True,
		budget=standing.name,
		marker=marker,
		period_key=standing.period_key,
		summary=standing.as_dict(),
	)


def send_notice(budget: str, marker: str, period_key: str, summary: dict) -> None:
	"""Background job: claim `marker` for the period under the budget's row lock, then notify once."""
	row = frappe.db.get_value("Huf Budget", budget, [marker, "owner", "user"], as_dict=True, for_update=True)
	if not row or row[marker] == period_key:
		return
	frappe.db.set_value("Huf Budget", budget, marker, period_key, update_modified=False)
	if marker == "stopped_period":
		subject = _("Budget {0} is used up: runs are stopped until {1}").format(budget, summary["resets_at"])
	else:
		subject = _("Budget {0} reached {1}% of its limit").format(budget, summary["percent"])
	message = _("{0} of {1} USD spent this {2}.").format(
		summary["spend"], summary["limit_usd"], _(summary["period"]).lower()
	)
	notifications.notify_users([row.owner, row.user], subject, DASHBOARD_PATH, message, "Huf Budget", budget)
	frappe.db.commit()
