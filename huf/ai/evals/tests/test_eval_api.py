"""The eval endpoints and the eval DocTypes over REST as Guest, Huf User and Huf Manager: cases are written by
those who may edit the agent, runs and results by the engine only; a background run and the comparison of two runs."""

import json

import frappe

from huf.ai.evals import runner
from huf.tests.support.evals import EVAL_MODEL, EVAL_PROVIDER, delete_evals_of, make_case, price_model
from huf.tests.support.jobs import wait_for_jobs
from huf.tests.support.llm_server import Reply
from huf.tests.support.runs import RuntimeTestCase
from huf.tests.support.web import api_clients

AGENT = "Eval API Agent"
PRIVATE_AGENT = "Eval API Private Agent"
USER = "eval-api-user@example.com"
MANAGER = "eval-api-manager@example.com"
OTHER = "eval-api-other@example.com"
METHOD = "/api/method/huf.api.evals."


class TestEvalApi(RuntimeTestCase):
	PROVIDER = EVAL_PROVIDER
	MODEL = EVAL_MODEL
	users = ((USER, ("Huf User",)), (MANAGER, ("Huf Manager",)), (OTHER, ("Huf User",)))

	@classmethod
	def setUpClass(cls) -> None:
		super().setUpClass()
		price_model()
		cls.addClassCleanup(delete_evals_of, [AGENT, PRIVATE_AGENT])
		cls.guest, cls.user, cls.manager = api_clients(cls, None, USER, MANAGER)

	def setUp(self) -> None:
		super().setUp()
		delete_evals_of([AGENT, PRIVATE_AGENT])
		self.agent = self.make_agent(AGENT, provider=EVAL_PROVIDER, model=EVAL_MODEL)
		self.private = self.make_agent(
			PRIVATE_AGENT, provider=EVAL_PROVIDER, model=EVAL_MODEL, agent_user=[{"user": OTHER}]
		)
		self.case = make_case(self.agent, "greets", "Hello", {"kind": "Contains", "value": "hi"})
		self.private_case = make_case(self.private, "private", "Secret", {"kind": "Contains", "value": "x"})

	def a_run(self, answer: str) -> str:
		self.llm.queue(Reply(content=answer))
		return runner.run_all(runner.create_run(self.agent)).name

	def test_guests_get_nothing(self):
		run = self.a_run("hi")
		for path in (
			f"{METHOD}list_cases?agent={AGENT}",
			f"{METHOD}list_eval_runs?agent={AGENT}",
			f"{METHOD}get_eval_run?eval_run={run}",
			f"/api/resource/Agent Eval Case/{self.case}",
			f"/api/resource/Agent Eval Run/{run}",
		):
			self.assertIn(self.guest.get(path).status_code, (401, 403), path)
		response = self.guest.post(f"{METHOD}start_eval_run", data={"agent": AGENT})
		self.assertIn(response.status_code, (401, 403))
		self.assertEqual(
			self.guest.post(
				"/api/resource/Agent Eval Run", json={"agent": AGENT, "status": "Passed"}
			).status_code,
			403,
		)

	def test_huf_users_read_the_evals_of_agents_open_to_them_and_write_nothing(self):
		run = self.a_run("hi")
		cases = self.user.get(f"{METHOD}list_cases", params={"agent": AGENT})
		self.assertEqual(cases.status_code, 200, cases.text)
		self.assertEqual([c["title"] for c in cases.json()["message"]], ["greets"])
		runs = self.user.get(f"{METHOD}list_eval_runs", params={"agent": AGENT}).json()["message"]
		self.assertEqual([(r["name"], r["status"]) for r in runs], [(run, "Passed")])
		self.assertEqual(self.user.get(f"/api/resource/Agent Eval Run/{run}").status_code, 200)

		# an agent restricted to someone else: its cases are neither listed nor readable
		self.assertEqual(self.user.get(f"/api/resource/Agent Eval Case/{self.private_case}").status_code, 403)
		listed = self.user.get("/api/resource/Agent Eval Case", params={"limit_page_length": 100}).json()[
			"data"
		]
		self.assertNotIn(self.private_case, [row["name"] for row in listed])
		self.assertEqual(
			self.user.get(f"{METHOD}list_cases", params={"agent": PRIVATE_AGENT}).status_code, 403
		)

		self.assertEqual(self.user.post(f"{METHOD}start_eval_run", data={"agent": AGENT}).status_code, 403)
		new_case = {"agent": AGENT, "title": "mine", "prompt": "p"}
		self.assertEqual(self.user.post("/api/resource/Agent Eval Case", json=new_case).status_code, 403)
		self.assertEqual(
			self.user.put(f"/api/resource/Agent Eval Case/{self.case}", json={"prompt": "x"}).status_code, 403
		)
		self.assertEqual(
			self.user.put(f"/api/resource/Agent Eval Run/{run}", json={"status": "Failed"}).status_code, 403
		)

	def test_huf_managers_write_cases_but_runs_and_results_only_through_the_engine(self):
		new_case = {
			"agent": AGENT,
			"title": "by manager",
			"prompt": "Say hi",
			"checks": [{"kind": "Regex", "value": "h[iI]"}],
		}
		created = self.manager.post("/api/resource/Agent Eval Case", json=new_case)
		self.assertEqual(created.status_code, 200, created.text)
		bad = {**new_case, "checks": [{"kind": "Regex", "value": "(unclosed"}]}
		self.assertEqual(self.manager.post("/api/resource/Agent Eval Case", json=bad).status_code, 417)

		forged = {"agent": AGENT, "status": "Passed", "total_cases": 1, "passed_cases": 1}
		self.assertEqual(self.manager.post("/api/resource/Agent Eval Run", json=forged).status_code, 403)
		run = self.a_run("no")
		self.assertEqual(
			self.manager.put(f"/api/resource/Agent Eval Run/{run}", json={"status": "Passed"}).status_code,
			403,
		)
		result = frappe.db.get_value("Agent Eval Result", {"eval_run": run})
		self.assertEqual(
			self.manager.put(
				f"/api/resource/Agent Eval Result/{result}", json={"status": "Passed"}
			).status_code,
			403,
		)
		self.assertEqual(self.manager.delete(f"/api/resource/Agent Eval Run/{run}").status_code, 403)
		frappe.db.rollback()
		self.assertEqual(frappe.db.get_value("Agent Eval Run", run, "status"), "Failed")

	def test_a_background_run_and_the_comparison_of_two_runs(self):
		failed = self.a_run("nope")
		self.llm.queue(Reply(content="hi!"))
		started = self.manager.post(f"{METHOD}start_eval_run", data={"agent": AGENT})
		self.assertEqual(started.status_code, 200, started.text)
		run = started.json()["message"]
		self.assertEqual((run["status"], run["total_cases"], run["requested_by"]), ("Queued", 1, MANAGER))
		wait_for_jobs(120)

		got = self.manager.get(f"{METHOD}get_eval_run", params={"eval_run": run["name"]}).json()["message"]
		self.assertEqual((got["status"], got["done_cases"], got["passed_cases"]), ("Passed", 1, 1))
		self.assertEqual(got["results"][0]["answer"], "hi!")
		self.assertEqual(got["results"][0]["check_results"][0]["passed"], True)

		compared = self.user.get(f"{METHOD}compare_eval_runs", params={"run_a": failed, "run_b": run["name"]})
		self.assertEqual(compared.status_code, 200, compared.text)
		body = compared.json()["message"]
		self.assertEqual((body["a"]["status"], body["b"]["status"]), ("Failed", "Passed"))
		(row,) = body["cases"]
		self.assertEqual((row["case_title"], row["change"]), ("greets", "fixed"))
		self.assertEqual((row["a"]["status"], row["b"]["status"]), ("Failed", "Passed"))
		self.assertAlmostEqual(row["b"]["cost"], 0.02)
		self.assertIsInstance(row["b"]["latency"], float)
		json.dumps(body)  # plain JSON all through
