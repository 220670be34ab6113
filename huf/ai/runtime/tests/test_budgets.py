"""Budgets and the kill switch (docs/budgets.md): refusal at the door (429 naming the budget and its reset),
a run stopped before its next model call with its cost kept, scopes, day and month windows, notifications
once per period, Pause All Runs (423, schedules skipped without failures, resume), who reads which budget.
Each scripted model round of the priced model costs 0.02 USD (10 input, 5 output tokens)."""

import json
from datetime import datetime

import frappe
import httpx
from frappe.utils import add_to_date, get_datetime

from huf.ai.runtime import budgets, front_door
from huf.ai.runtime.budgets import BudgetExceeded, RunsPaused
from huf.ai.runtime.run_request import RunRequest
from huf.ai.triggers.schedule import run_scheduled_agents
from huf.api.budgets import list_budgets, set_pause_all_runs
from huf.tests.support.jobs import wait_for_jobs
from huf.tests.support.llm_server import Reply, tool_call
from huf.tests.support.runs import LiveAgentTestCase, make_priced_model
from huf.tests.support.tools import ToolTestCase
from huf.tests.support.triggers import TriggerTestHelpers
from huf.tests.support.web import api_token

ADA = "budget-ada@example.com"  # Huf User
BOB = "budget-bob@example.com"  # Huf User
MAX = "budget-max@example.com"  # Huf Manager
PRICED = "budget-priced-model"
LIST_TOOL = "budget_todo_list"
ROUND = 0.02
RUN = "/api/method/huf.ai.agent_integration.run_agent_sync"
PAUSE = "/api/method/huf.api.budgets.set_pause_all_runs"
LIST = "/api/method/huf.api.budgets.list_budgets"


class TestBudgets(TriggerTestHelpers, ToolTestCase):
	users = ((ADA, ("Huf User",)), (BOB, ("Huf User",)), (MAX, ("Huf Manager",)))

	@classmethod
	def setUpClass(cls):
		super().setUpClass()
		make_priced_model(PRICED)

	def setUp(self):
		super().setUp()
		self.make_tool(LIST_TOOL, "Get List", reference_doctype="ToDo", parameters=[])
		self.agent = self.make_tool_agent("Budget Test Agent", LIST_TOOL, model=PRICED)
		self.other = self.make_agent("Budget Other Agent", model=PRICED)
		self.addCleanup(self.unpause)

	# --- helpers -----------------------------------------------------------------------------------

	def make_budget(
		self, name: str, limit: float, scope: str = "Agent", period: str = "Day", **values
	) -> str:
		if scope == "Agent":
			values.setdefault("agent", self.agent)
		doc = frappe.get_doc(
			{
				"doctype": "Huf Budget",
				"budget_name": name,
				"scope": scope,
				"period": period,
				"limit_usd": limit,
				**values,
			}
		).insert()
		frappe.db.commit()
		self.addCleanup(self.delete, "Huf Budget", doc.name)
		return doc.name

	def start(self, prompt: str, user: str = ADA, agent: str | None = None) -> front_door.RunResult:
		frappe.set_user(user)
		try:
			return front_door.run_now(RunRequest(agent or self.agent, prompt))
		finally:
			frappe.set_user("Administrator")
			frappe.db.commit()

	def refused(self, error: type, prompt: str = "refused?", user: str = ADA, agent: str | None = None):
		runs = frappe.db.count("Agent Run")
		with self.assertRaises(error) as caught:
			self.start(prompt, user, agent)
		self.assertEqual(frappe.db.count("Agent Run"), runs)  # nothing was written
		return caught.exception

	def notifications(self, text: str) -> int:
		wait_for_jobs()  # a notice is sent by a job of its own (budgets.send_notice)
		return frappe.db.count("Notification Log", {"subject": ("like", f"%{text}%")})

	def unpause(self) -> None:
		frappe.set_user("Administrator")
		budgets.set_paused(False)
		frappe.db.commit()

	# --- the door ----------------------------------------------------------------------------------

	def test_a_run_over_its_budget_is_refused_at_the_door_with_429_naming_it_and_its_reset(self):
		budget = self.make_budget("Budget Door Day", 2 * ROUND)
		self.llm.queue("one", "two", "three")
		self.assertEqual(self.start("first").status, "Success")
		self.assertEqual(self.start("second").status, "Success")  # 0.02 of 0.04 spent: still under

		error = self.refused(BudgetExceeded)
		self.assertEqual(error.http_status_code, 429)
		tomorrow = add_to_date(datetime.combine(frappe.utils.getdate(), datetime.min.time()), days=1)
		message = str(error)
		self.assertIn(budget, message)
		self.assertIn("resets at", message)
		self.assertIn(str(tomorrow), message)
		self.assertEqual(len(self.llm.chat_requests), 2)  # the refused run asked no model

	def test_a_running_run_stops_before_its_next_model_call_with_its_cost_recorded(self):
		budget = self.make_budget("Budget Stop Day", ROUND)
		self.llm.queue(
			Reply(content="", tool_calls=[tool_call(LIST_TOOL, {})]), Reply(content="Never asked.")
		)
		result = self.start("list my todos")

		self.assertEqual(result.status, "Failed")
		self.assertEqual(len(self.llm.chat_requests), 1)  # stopped before the second model call
		run = frappe.db.get_value(
			"Agent Run",
			result.run,
			["status", "error_message", "total_cost", "runtime_context"],
			as_dict=True,
		)
		self.assertEqual(run.status, "Failed")
		self.assertIn(budget, run.error_message)
		self.assertIn("resets at", run.error_message)
		self.assertAlmostEqual(run.total_cost, ROUND)
		self.assertEqual(json.loads(run.runtime_context)[budgets.STOPPED_BY], "budget")
		self.assertTrue(frappe.db.exists("Agent Tool Call", {"agent_run": result.run}))  # the tool ran
		self.assertEqual(self.notifications(f"Budget {budget} is used up"), 1)
		self.refused(BudgetExceeded)
		self.assertEqual(self.notifications(f"Budget {budget} is used up"), 1)  # once per period

	# --- scopes and windows ------------------------------------------------------------------------

	def test_agent_user_and_site_budgets_cover_only_their_runs(self):
		self.make_budget("Budget Other Agent", 0, agent=self.other)  # 0: nothing may be spent
		self.refused(BudgetExceeded, agent=self.other)
		self.llm.queue("fine")
		self.assertEqual(self.start("this agent is not covered").status, "Success")

		self.make_budget("Budget Ada", ROUND, scope="User", user=ADA)
		error = self.refused(BudgetExceeded, user=ADA)  # ADA spent 0.02 today
		self.assertIn("Budget Ada", str(error))
		self.llm.queue("fine for Bob")
		self.assertEqual(self.start("Bob is not covered", user=BOB).status, "Success")

		self.make_budget("Budget Whole Site", 0, scope="Site", period="Month")
		self.assertIn("Budget Whole Site", str(self.refused(BudgetExceeded, user=BOB)))

	def test_day_and_month_windows_count_the_runs_of_their_period_in_the_site_time_zone(self):
		day = self.make_budget("Budget Window Day", 1)
		month = self.make_budget("Budget Window Month", 1, period="Month")
		self.llm.queue("counted")
		run = self.start("counted").run
		frappe.db.set_value("Agent Run", run, "creation", "2026-03-15 23:30:00", update_modified=False)
		frappe.db.commit()
		rows = {name: frappe.get_doc("Huf Budget", name).as_dict() for name in (day, month)}

		def spend(name: str, moment: str) -> float:
			return budgets.spend_of(rows[name], get_datetime(moment)).spend

		self.assertAlmostEqual(spend(day, "2026-03-15 00:00:00"), ROUND)
		self.assertEqual(spend(day, "2026-03-16 00:00:00"), 0)  # the next day starts at midnight
		self.assertAlmostEqual(spend(month, "2026-03-31 23:59:59"), ROUND)
		self.assertEqual(spend(month, "2026-04-01 00:00:00"), 0)
		self.assertEqual(spend(month, "2026-02-28 12:00:00"), 0)
		standing = budgets.spend_of(rows[month], get_datetime("2026-03-20 08:00:00"))
		self.assertEqual(str(standing.resets_at), "2026-04-01 00:00:00")

	def test_the_warning_and_the_stop_are_each_notified_once_a_period(self):
		budget = self.make_budget("Budget Notify", 3 * ROUND / 2, warning_percent=50)
		self.llm.queue("one", "two")
		self.start("first")  # 0.02 of 0.03
		self.assertEqual(self.notifications(f"Budget {budget} reached"), 0)
		self.start("second")  # its start sees 66 %: the warning; it spends 0.04 in all
		self.assertEqual(self.notifications(f"Budget {budget} reached"), 1)
		self.refused(BudgetExceeded)
		self.refused(BudgetExceeded)
		self.assertEqual(self.notifications(f"Budget {budget} reached"), 1)
		self.assertEqual(self.notifications(f"Budget {budget} is used up"), 1)
		values = frappe.db.get_value("Huf Budget", budget, ["warned_period", "stopped_period"])
		self.assertEqual(values, (str(frappe.utils.getdate()),) * 2)

	def test_a_refused_schedule_trigger_is_logged_and_not_counted_as_a_failure(self):
		self.make_budget("Budget Trigger", 0)
		trigger = self.make_trigger(trigger_type="Schedule", scheduled_interval="Hourly", interval_count=1)
		planned = get_datetime(frappe.db.get_value("Agent Trigger", trigger, "next_execution"))
		run_scheduled_agents(add_to_date(planned, minutes=1))
		self.assertEqual(self.runs_of(trigger), [])
		values = frappe.db.get_value("Agent Trigger", trigger, ["disabled", "metadata"], as_dict=True)
		state = json.loads(values.metadata)
		self.assertEqual((values.disabled, state.get("failures", 0)), (0, 0))
		self.assertIn("Budget Trigger", state["last_error"])
		logged = frappe.get_all("Error Log", filters={"reference_name": trigger}, fields=["method", "error"])
		self.assertTrue(any("skipped" in (row.method or "") for row in logged), logged)

	# --- the kill switch ---------------------------------------------------------------------------

	def test_pause_all_runs_refuses_runs_with_423_skips_schedules_and_resumes(self):
		trigger = self.make_trigger(trigger_type="Schedule", scheduled_interval="Hourly", interval_count=1)
		planned = get_datetime(frappe.db.get_value("Agent Trigger", trigger, "next_execution"))
		frappe.set_user(ADA)
		self.assertRaises(frappe.PermissionError, set_pause_all_runs, 1)
		frappe.set_user(MAX)
		switch = set_pause_all_runs(1)
		frappe.set_user("Administrator")
		frappe.db.commit()
		self.assertEqual((switch["paused"], switch["paused_by"]), (True, MAX))
		self.assertTrue(switch["paused_at"])

		error = self.refused(RunsPaused)
		self.assertEqual(error.http_status_code, 423)
		self.assertIn("paused", str(error))
		for _tick in range(6):  # more ticks than the failures that would disable it
			run_scheduled_agents(add_to_date(planned, minutes=1))
		self.assertEqual(self.runs_of(trigger), [])
		values = frappe.db.get_value("Agent Trigger", trigger, ["disabled", "metadata"], as_dict=True)
		self.assertEqual((values.disabled, json.loads(values.metadata or "{}").get("failures", 0)), (0, 0))

		frappe.set_user(MAX)
		self.assertFalse(set_pause_all_runs(0)["paused"])
		frappe.set_user("Administrator")
		frappe.db.commit()
		self.llm.queue("resumed", "scheduled")
		self.assertEqual(self.start("after resuming").status, "Success")
		run_scheduled_agents(add_to_date(planned, minutes=2))
		runs = self.runs_of(trigger)
		self.assertEqual([run.status for run in runs], ["Success"])

	def test_a_run_that_was_queued_stops_at_its_next_step_once_runs_are_paused(self):
		from unittest.mock import patch

		from huf.ai.runtime import queue

		frappe.set_user(ADA)
		with patch.object(queue, "kick_drainer"):  # left queued: no drainer runs it yet
			queued = front_door.enqueue(RunRequest(self.agent, "later"))
		frappe.set_user("Administrator")
		budgets.set_paused(True)
		frappe.db.commit()
		queue.kick_drainer(queued.conversation)
		wait_for_jobs(60)
		run = frappe.db.get_value("Agent Run", queued.run, ["status", "error_message"], as_dict=True)
		self.assertEqual(run.status, "Failed")
		self.assertIn("paused", run.error_message)
		self.assertEqual(len(self.llm.chat_requests), 0)
		self.assertTrue(budgets.stopped_by_limit(queued.run))

	# --- who reads and writes budgets --------------------------------------------------------------

	def test_huf_users_read_site_budgets_and_their_own_and_write_none(self):
		site = self.make_budget("Budget Read Site", 5, scope="Site")
		own = self.make_budget("Budget Read Ada", 5, scope="User", user=ADA)
		bob = self.make_budget("Budget Read Bob", 5, scope="User", user=BOB)
		agent = self.make_budget("Budget Read Agent", 5)
		frappe.set_user(ADA)
		try:
			self.assertEqual(sorted(frappe.get_list("Huf Budget", pluck="name")), sorted([own, site]))
			self.assertFalse(frappe.has_permission("Huf Budget", "read", doc=bob))
			self.assertFalse(frappe.has_permission("Huf Budget", "read", doc=agent))
			listed = list_budgets()
			self.assertEqual(sorted(row["name"] for row in listed["budgets"]), sorted([own, site]))
			self.assertFalse(listed["kill_switch"]["can_change"])
			doc = frappe.get_doc("Huf Budget", own)
			doc.limit_usd = 500
			self.assertRaises(frappe.PermissionError, doc.save)
			new = frappe.get_doc({"doctype": "Huf Budget", "budget_name": "Budget Ada Made", "limit_usd": 1})
			self.assertRaises(frappe.PermissionError, new.insert)
			frappe.set_user(MAX)
			self.assertEqual(
				len({row["name"] for row in list_budgets()["budgets"]} & {site, own, bob, agent}), 4
			)
			doc = frappe.get_doc("Huf Budget", agent)
			doc.update({"limit_usd": 7, "stopped_period": "2099-01-01", "warned_period": "2099-01-01"})
			doc.save()
			stored = frappe.db.get_value("Huf Budget", agent, ["limit_usd", "stopped_period"], as_dict=True)
			self.assertEqual((stored.limit_usd, stored.stopped_period), (7, None))  # Huf's marker is kept
		finally:
			frappe.set_user("Administrator")
			frappe.db.rollback()


class TestBudgetsOverHttp(LiveAgentTestCase):
	"""What a REST client sees: 423 while paused, 429 over a budget, who may flip the switch or list budgets."""

	AGENT = "Budget Http Agent"
	PROVIDER = "Budget Http LLM"
	MODEL = "budget-http-model"
	users = ((ADA, ("Huf User",)), (MAX, ("Huf Manager",)))

	def setUp(self):
		super().setUp()
		self.addCleanup(TestBudgets.unpause, self)

	def api(self, user: str | None = None) -> httpx.Client:
		headers = {"Authorization": api_token(user)} if user else {}
		client = httpx.Client(base_url=self.base_url, headers=headers, timeout=120)
		self.addCleanup(client.close)
		return client

	def test_pause_refuses_with_423_a_budget_with_429_and_only_managers_flip_the_switch(self):
		ada, manager, guest = self.api(ADA), self.api(MAX), self.api()
		self.assertEqual(guest.post(PAUSE, json={"paused": 1}).status_code, 403)
		self.assertEqual(guest.get(LIST).status_code, 403)
		self.assertEqual(ada.post(PAUSE, json={"paused": 1}).status_code, 403)
		response = manager.post(PAUSE, json={"paused": 1})
		self.assertEqual(response.status_code, 200, response.text)
		self.assertEqual(response.json()["message"]["paused_by"], MAX)

		refused = ada.post(RUN, json={"agent_name": self.AGENT, "prompt": "hello", "now": 1})
		self.assertEqual(refused.status_code, 423, refused.text)
		self.assertIn("paused", refused.text)
		self.assertEqual(manager.post(PAUSE, json={"paused": 0}).status_code, 200)
		self.llm.queue("hello back")
		answer = ada.post(RUN, json={"agent_name": self.AGENT, "prompt": "hello", "now": 1})
		self.assertEqual(answer.status_code, 200, answer.text)

		frappe.get_doc(
			{
				"doctype": "Huf Budget",
				"budget_name": "Budget Http",
				"scope": "User",
				"user": ADA,
				"limit_usd": 0,
			}
		).insert()
		frappe.db.commit()
		self.addCleanup(frappe.db.commit)
		self.addCleanup(budgets.clear_guard)  # deleted below without the controller
		self.addCleanup(frappe.db.delete, "Huf Budget", {"budget_name": "Budget Http"})
		refused = ada.post(RUN, json={"agent_name": self.AGENT, "prompt": "hello", "now": 1})
		self.assertEqual(refused.status_code, 429, refused.text)
		self.assertIn("Budget Http", refused.text)
		self.assertIn("resets at", refused.text)
		listed = ada.get(LIST)
		self.assertEqual(listed.status_code, 200, listed.text)
		self.assertIn("Budget Http", [row["name"] for row in listed.json()["message"]["budgets"]])
