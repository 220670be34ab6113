"""Screenshots of the dashboard for the README: `.venv/bin/python tools/screenshots.py`.

Builds a throw-away Lite site of its own (.cache/screenshots-site, never the dev or test sites), serves
it on a free port of 127.0.0.1, starts the scripted LLM (huf/tests/support/llm_server.py) and seeds demo
records through the app's own HTTP APIs as Administrator: a provider on the scripted LLM, priced models,
tools, three agents, a knowledge source, a data table, a flow, a trigger, a conversation with tool calls
and a Markdown answer, and a fortnight of runs for the charts. Then tools/screenshots.mjs drives
Chromium over the main pages (light and dark, 1280x800 and 375x812) and the PNGs land in
docs/screenshots/<page>-<light|dark>-<wide|narrow>.png, reduced to a 256-colour palette.
The server and the LLM are stopped at the end; the exit status is 1 when anything failed.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import socket
import subprocess
import sys
import time
from datetime import datetime, timedelta
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parents[1]
SITES = ROOT / ".cache" / "screenshots-site"
SITE = "screenshots.localhost"
PASSWORD = "admin"
OUT = ROOT / "docs" / "screenshots"
BROWSER_SCRIPT = ROOT / "tools" / "screenshots.mjs"
CHROMIUM = os.environ.get("HUF_CHROMIUM", "/usr/bin/chromium")
HUF = ROOT / ".venv" / "bin" / "huf"

PROVIDER = "Local Gateway"
CHAT_MODEL, SMART_MODEL = "gpt-4o-mini", "gpt-4o"
SUPPORT, PLANNER, WRITER = "Support Assistant", "Task Planner", "Release Notes Writer"


class Failure(Exception):
	"""A step that went wrong: the message says which and why."""


def missing_prerequisite() -> str | None:
	if not shutil.which("node"):
		return "node is not installed"
	if not Path(CHROMIUM).exists():
		return f"chromium not found at {CHROMIUM} (set HUF_CHROMIUM)"
	if not (ROOT / "node_modules" / "playwright-core").is_dir():
		return "playwright-core is missing: run `npm ci` at the repository root"
	if not (ROOT / "huf" / "public" / "frontend" / "index.html").is_file():
		return "the dashboard is not built: run `npm run build` at the repository root"
	if not HUF.exists():
		return f"{HUF} is missing: run `make setup`"
	return None


# --- the site and its server -------------------------------------------------------------------


def huf(*args: str) -> None:
	"""Run the `huf` command on the screenshot site's folder; fail with its output."""
	proc = subprocess.run(
		[str(HUF), "--sites-path", str(SITES), *args], capture_output=True, text=True, timeout=300
	)
	if proc.returncode:
		raise Failure(f"huf {' '.join(args)} failed:\n{proc.stdout}{proc.stderr}")


def make_site() -> None:
	"""A fresh site (replacing the previous run's), so every run starts from the same records."""
	SITES.mkdir(parents=True, exist_ok=True)
	(SITES / "apps.txt").write_text("huf\n")
	huf("new-site", SITE, "--admin-password", PASSWORD, "--install-app", "huf", "--force")
	# a scripted error must fail its run at once, not after retries with back-off
	huf("--site", SITE, "set-config", "huf_llm_retry_attempts", "1", "--parse")


def free_port() -> int:
	with socket.socket() as sock:
		sock.bind(("127.0.0.1", 0))
		return sock.getsockname()[1]


class Server:
	"""`huf serve` of the site on 127.0.0.1 (web, worker and scheduler in one process)."""

	def __init__(self):
		self.port = free_port()
		self.url = f"http://127.0.0.1:{self.port}"
		self.log_path = SITES / "serve.log"
		self.proc: subprocess.Popen | None = None

	def start(self) -> None:
		log = self.log_path.open("w")
		command = [str(HUF), "--sites-path", str(SITES), "--site", SITE, "serve"]
		command += ["--host", "127.0.0.1", "--port", str(self.port)]
		self.proc = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT)
		deadline = time.monotonic() + 90
		while time.monotonic() < deadline:
			if self.proc.poll() is not None:
				raise Failure(f"the server stopped (exit {self.proc.returncode}); see {self.log_path}")
			try:
				if httpx.get(f"{self.url}/api/method/ping", timeout=2).status_code == 200:
					return
			except httpx.HTTPError:
				pass
			time.sleep(0.3)
		raise Failure(f"the server did not answer within 90 s; see {self.log_path}")

	def stop(self) -> None:
		if self.proc and self.proc.poll() is None:
			self.proc.terminate()
			try:
				self.proc.wait(timeout=15)
			except subprocess.TimeoutExpired:
				self.proc.kill()
				self.proc.wait()


class Api:
	"""Administrator's cookie session on the served site: `/api/resource` and whitelisted methods."""

	def __init__(self, url: str):
		self.client = httpx.Client(base_url=url, timeout=120)
		answer = self.client.post("/api/method/login", data={"usr": "Administrator", "pwd": PASSWORD})
		self.check(answer, "login")

	@staticmethod
	def check(answer: httpx.Response, what: str) -> dict:
		if answer.status_code != 200:
			raise Failure(f"{what}: HTTP {answer.status_code} {answer.text[:800]}")
		return answer.json()

	def insert(self, doctype: str, **values) -> dict:
		answer = self.client.post(f"/api/resource/{doctype}", json=values)
		return self.check(answer, f"creating {doctype}")["data"]

	def call(self, method: str, **args) -> object:
		answer = self.client.post(f"/api/method/{method}", json=args)
		return self.check(answer, method).get("message")

	def get_list(self, doctype: str, fields: list[str], filters: dict) -> list[dict]:
		params = {"fields": json.dumps(fields), "filters": json.dumps(filters), "limit_page_length": 0}
		return self.check(self.client.get(f"/api/resource/{doctype}", params=params), doctype)["data"]


# --- the demo records ---------------------------------------------------------------------------


def seed_setup(api: Api, llm_base: str) -> dict:
	"""Provider, models, tools, agents, knowledge, a data table, a flow and a trigger."""
	api.insert("AI Provider", provider_name=PROVIDER, api_key="sk-demo-screenshots", api_base=llm_base)
	for model, prices in (
		(CHAT_MODEL, (0.15, 0.6)),
		(SMART_MODEL, (2.5, 10.0)),
	):
		api.insert(
			"AI Model",
			model_name=model,
			provider=PROVIDER,
			use_custom_pricing=1,
			input_cost_per_1m_tokens=prices[0],
			output_cost_per_1m_tokens=prices[1],
		)
	for description, priority, days in (
		("Send Acme the renewal quote", "High", 1),
		("Review the onboarding checklist with Priya", "Medium", 3),
		("Update the refund policy page", "Low", 6),
		("Reply to the Globex security questionnaire", "High", 2),
	):
		date = (datetime.now() + timedelta(days=days)).strftime("%Y-%m-%d")
		api.insert("ToDo", description=description, priority=priority, date=date, status="Open")
	api.insert("Note", title="Q3 release", content="Streaming chat, flows with approvals, data tables.")

	tools = [
		("list_todos", "Get List", "ToDo", "Lists the open to-dos with their priority and due date."),
		("create_todo", "Create Document", "ToDo", "Adds a to-do for a follow-up."),
		("get_todo", "Get Document", "ToDo", "Reads one to-do by its name."),
		("search_notes", "Get List", "Note", "Finds team notes by title."),
	]
	for name, kind, doctype, description in tools:
		parameters = []
		if kind == "Create Document":
			parameters = [
				{"label": "Description", "fieldname": "description", "type": "string", "required": 1},
				{"label": "Date", "fieldname": "date", "type": "string"},
			]
		api.insert(
			"Agent Tool Function",
			tool_name=name,
			types=kind,
			tool_type="Document Operations",
			reference_doctype=doctype,
			description=description,
			parameters=parameters,
		)

	source = api.insert(
		"Knowledge Source",
		source_name="Help Centre",
		description="Articles customers read before writing to support.",
		knowledge_type="sqlite_fts",
	)["name"]
	for title, text in (
		("Refunds", "Refunds are paid back to the original card within five business days."),
		("Shipping", "Orders ship from the Pune warehouse and usually arrive within one week."),
		("Warranty", "The warranty covers manufacturing defects of every blender for two years."),
	):
		api.insert("Knowledge Input", knowledge_source=source, input_type="Text", title=title, text=text)

	common = {"provider": PROVIDER, "allow_chat": 1, "context_strategy": "FIFO"}
	api.insert(
		"Agent",
		agent_name=SUPPORT,
		model=CHAT_MODEL,
		description="Answers customer questions from the Help Centre and files follow-up to-dos.",
		instructions="You help the support team. Be friendly and precise; use the tools for to-dos.",
		agent_tool=[{"tool": t} for t in ("list_todos", "create_todo", "get_todo")],
		agent_knowledge=[{"knowledge_source": source, "mode": "Optional"}],
		**common,
	)
	api.insert(
		"Agent",
		agent_name=PLANNER,
		model=SMART_MODEL,
		description="Turns the open to-dos into a plan for the week, every weekday morning.",
		instructions="Plan the week from the open to-dos: most urgent first, one line each.",
		agent_tool=[{"tool": "list_todos"}],
		**common,
	)
	api.insert(
		"Agent",
		agent_name=WRITER,
		model=SMART_MODEL,
		description="Drafts release notes from the team's notes, in plain words.",
		instructions="Write short release notes for customers from the notes you find.",
		agent_tool=[{"tool": "search_notes"}],
		**common,
	)
	api.insert(
		"Agent Trigger",
		trigger_name="Weekday planning",
		agent=PLANNER,
		trigger_type="Schedule",
		scheduled_interval="Cron",
		cron_expression="0 9 * * 1-5",
	)
	api.call(
		"huf.huf.doctype.huf_data_table.api.create_data_table",
		table_name="Customers",
		description="Accounts the support team looks after.",
		icon="👥",
		title_field="company",
		fields=json.dumps(
			[
				{
					"fieldname": "company",
					"label": "Company",
					"fieldtype": "Data",
					"reqd": 1,
					"in_list_view": 1,
				},
				{
					"fieldname": "plan",
					"label": "Plan",
					"fieldtype": "Select",
					"options": "Starter\nTeam\nEnterprise",
					"in_list_view": 1,
				},
				{"fieldname": "seats", "label": "Seats", "fieldtype": "Int", "in_list_view": 1},
				{"fieldname": "renewal", "label": "Renewal", "fieldtype": "Date", "in_list_view": 1},
			]
		),
	)
	table = api.call("huf.api.data_tables.list_data_tables")[0]["name"]
	for company, plan, seats, months in (
		("Acme Corp", "Enterprise", 120, 2),
		("Globex", "Team", 35, 5),
		("Initech", "Starter", 8, 1),
		("Umbrella Health", "Enterprise", 240, 9),
		("Stark Logistics", "Team", 52, 4),
	):
		renewal = (datetime.now() + timedelta(days=30 * months)).strftime("%Y-%m-%d")
		values = {"company": company, "plan": plan, "seats": seats, "renewal": renewal}
		api.call("huf.api.data_tables.save_record", name=table, values=values)

	flow = seed_flow(api)
	return {"flow": flow, "knowledge": source, "table": table}


def seed_flow(api: Api) -> str:
	"""Webhook -> draft a reply -> a person approves -> file a to-do -> end; laid out top to bottom."""

	def step(node_id: str, node_type: str, x: int, y: int, **data) -> dict:
		return {"id": node_id, "type": node_type, "position": {"x": x, "y": y}, "data": data}

	nodes = [
		step("ticket", "trigger.webhook", 150, 0, label="New ticket"),
		step(
			"draft",
			"agent.run",
			150,
			130,
			label="Draft a reply",
			agent=SUPPORT,
			prompt="Draft a reply to: {{ payload.message }}",
		),
		step(
			"review",
			"human.approval",
			150,
			260,
			label="Review the reply",
			approvers={"users": [], "roles": ["Huf Manager"]},
			message="Send this reply? {{ nodes.draft.output.response }}",
		),
		step(
			"follow_up",
			"tool.call",
			0,
			400,
			label="File a follow-up",
			tool="create_todo",
			arguments={"description": "Follow up on {{ payload.subject }}"},
		),
		step("sent", "end", 0, 530, label="Sent", output="{{ nodes.draft.output.response }}"),
		step("dropped", "end", 300, 400, label="Rejected", output="rejected"),
	]

	def link(source: str, target: str, kind: str = "always", outcome: str | None = None) -> dict:
		edge = {"id": f"{source}->{target}", "source": source, "target": target, "type": kind}
		if outcome:
			edge.update(sourceHandle=outcome, meta={"outcome": outcome})
		return edge

	edges = [
		link("ticket", "draft"),
		link("draft", "review", "on_success"),
		link("review", "follow_up", outcome="approved"),
		link("review", "dropped", outcome="rejected"),
		link("follow_up", "sent", "on_success"),
	]
	definition = {
		"id": "ticket-replies",
		"schema_version": 1,
		"entry_node_id": "ticket",
		"nodes": nodes,
		"edges": edges,
	}
	api.insert(
		"Flow Definition",
		flow_id="ticket-replies",
		flow_name="Ticket replies",
		description="Drafts a reply to each new ticket and sends it once a manager approves.",
		status="Active",
		definition_json=json.dumps(definition),
	)
	return "ticket-replies"


TODO_ANSWER = """You have **4 open to-dos**; two are urgent:

1. **Send Acme the renewal quote** (high, due tomorrow)
2. **Reply to the Globex security questionnaire** (high, due in 2 days)
3. Review the onboarding checklist with Priya (medium)
4. Update the refund policy page (low)

I'd start with the Acme quote: their renewal is the closest."""

PLAN_ANSWER = """Here is the week at a glance:

| Day | Focus | To-do |
| --- | --- | --- |
| Mon | Sales | Send Acme the renewal quote |
| Tue | Security | Globex questionnaire |
| Thu | People | Onboarding checklist with Priya |
| Fri | Docs | Refund policy page |

Want me to add a reminder for Friday?"""


def seed_conversation(api: Api, llm) -> dict:
	"""The conversation shown on the Chat page: three turns, two of them calling tools."""
	from huf.tests.support.llm_server import Reply, tool_call

	list_call = tool_call(
		"list_todos", {"filters": {"status": "Open"}, "fields": ["description", "priority", "date"]}
	)
	llm.queue(
		Reply(content="", tool_calls=[list_call], prompt_tokens=820, completion_tokens=34),
		Reply(content=TODO_ANSWER, prompt_tokens=1460, completion_tokens=96),
	)
	first = api.call(
		"huf.ai.agent_chat.new_conversation", agent=SUPPORT, message="What's still open on my to-do list?"
	)
	conversation = first["conversation_id"]
	llm.queue(Reply(content=PLAN_ANSWER, prompt_tokens=1710, completion_tokens=118))
	api.call(
		"huf.ai.agent_chat.send_message_to_conversation",
		conversation=conversation,
		message="Plan them over the week as a table.",
	)
	due = (datetime.now() + timedelta(days=4)).strftime("%Y-%m-%d")
	create_call = tool_call("create_todo", {"description": "Remind me: refund policy page", "date": due})
	llm.queue(
		Reply(content="", tool_calls=[create_call], prompt_tokens=1930, completion_tokens=41),
		Reply(
			content="Done: I added **Remind me: refund policy page** for Friday.",
			prompt_tokens=2010,
			completion_tokens=22,
		),
	)
	last = api.call(
		"huf.ai.agent_chat.send_message_to_conversation",
		conversation=conversation,
		message="Yes please, add a reminder for Friday.",
	)
	for answer in (first, last):
		if not answer.get("success", True):
			raise Failure(f"a chat turn failed: {answer}")
	return {"agent": SUPPORT, "conversation": conversation, "run": first["agent_run_id"]}


# Earlier conversations: (agent, days ago, turns of (question, answer)); one answer is a provider error.
HISTORY = [
	(
		SUPPORT,
		13,
		[("Where is my order #4471?", "It left the Pune warehouse on Monday; expect it this week.")],
	),
	(PLANNER, 12, [("Plan my week", "Monday: the Acme quote. Tuesday: the Globex questionnaire.")]),
	(
		WRITER,
		11,
		[("Draft the release notes for 3.1", "**Huf 3.1**: faster streaming and a new tools page.")],
	),
	(
		SUPPORT,
		10,
		[
			(
				"Can I get a refund for a damaged blender?",
				"Yes: refunds reach your card in five business days.",
			),
			("How do I send it back?", "Print the label from your order page and drop it at any courier."),
		],
	),
	(PLANNER, 9, [("What should I do first today?", "Send Acme the renewal quote: it is due tomorrow.")]),
	(
		SUPPORT,
		8,
		[
			(
				"Does the warranty cover the motor?",
				"The two-year warranty covers manufacturing defects, the motor too.",
			),
			("And the glass jug?", "The jug is covered against defects, not against drops."),
		],
	),
	(
		WRITER,
		7,
		[
			(
				"Summarise this week's changes for customers",
				"This week: approvals in flows and a dark theme.",
			),
			("Shorter, please", "Approvals in flows. Dark theme."),
		],
	),
	(PLANNER, 6, [("Which to-dos are overdue?", "None are overdue; two are due this week.")]),
	(
		SUPPORT,
		5,
		[
			("Do you ship to Sri Lanka?", None),
			("Do you ship to Sri Lanka?", "Yes, within ten days, from the Pune warehouse."),
		],
	),
	(
		WRITER,
		4,
		[
			(
				"Write a changelog entry for data tables",
				"**Data tables**: design a table, import a CSV, give agents tools for it.",
			)
		],
	),
	(
		PLANNER,
		3,
		[
			(
				"Plan the onboarding of Priya",
				"Day 1: accounts and the checklist. Day 2: shadow support. Day 3: first tickets.",
			)
		],
	),
	(
		SUPPORT,
		2,
		[
			(
				"My invoice shows the wrong VAT number",
				"I filed a to-do for billing; they will send a corrected invoice.",
			),
			("Thanks!", "You're welcome!"),
		],
	),
	(
		WRITER,
		1,
		[("Draft the release notes for 3.2", "**Huf 3.2**: streaming chat, flow approvals, data tables.")],
	),
	(PLANNER, 0, [("Anything urgent today?", "Yes: the Acme renewal quote is due tomorrow.")]),
]


def seed_history(api: Api, llm) -> list[tuple[str, str, int]]:
	"""Runs over the last two weeks, so the charts have bars: (run, conversation, days ago) each."""
	from huf.tests.support.llm_server import Reply

	made = []
	for number, (agent, days_ago, turns) in enumerate(HISTORY):
		conversation = None
		for turn, (question, answer) in enumerate(turns):
			if answer is None:  # a run the provider refused, as happens
				llm.queue(Reply(status=400, error="The model is overloaded; try again in a moment."))
			else:
				size = number * 7 + turn
				llm.queue(
					Reply(
						content=answer,
						prompt_tokens=700 + (size * 379) % 3100,
						completion_tokens=40 + (size * 53) % 380,
					)
				)
			if conversation:
				result = api.call(
					"huf.ai.agent_chat.send_message_to_conversation",
					conversation=conversation,
					message=question,
				)
			else:
				result = api.call("huf.ai.agent_chat.new_conversation", agent=agent, message=question)
				conversation = result["conversation_id"]
			if not result.get("agent_run_id"):
				raise Failure(f"{agent} did not run: {result}")
			made.append((result["agent_run_id"], conversation, days_ago))
	return made


def backdate(history: list[tuple[str, str, int]]) -> None:
	"""Move each earlier conversation (its runs and messages) to the day it stands for, keeping the
	order and spacing of its turns: only time changes, which no API offers, so in the site's database."""
	import frappe
	from frappe.utils import get_datetime

	frappe.init(SITE, sites_path=str(SITES))
	frappe.connect()
	try:
		now = datetime.now()
		days = {conversation: days_ago for _run, conversation, days_ago in history}
		for index, (conversation, days_ago) in enumerate(days.items()):
			# a working-hours time of that day; today's shortly before the conversation on the Chat page
			target = now - timedelta(days=days_ago, hours=2 + index % 5, minutes=(index * 17) % 60)
			if days_ago == 0:
				target = now - timedelta(minutes=30)
			started = get_datetime(frappe.db.get_value("Agent Conversation", conversation, "creation"))
			shift = target - started
			rows = [("Agent Conversation", conversation)]
			rows += [("Agent Run", run) for run, of, _days in history if of == conversation]
			filters = {"conversation": conversation}
			rows += [
				("Agent Message", m) for m in frappe.get_all("Agent Message", filters=filters, pluck="name")
			]
			for doctype, name in rows:
				fields = ["creation", "modified"] + (
					["last_activity"] if doctype == "Agent Conversation" else []
				)
				values = frappe.db.get_value(doctype, name, fields, as_dict=True)
				moved = {f: get_datetime(values[f]) + shift for f in fields if values[f]}
				frappe.db.set_value(doctype, name, moved, update_modified=False)
		frappe.db.commit()
	finally:
		frappe.destroy()


def wait_for_knowledge(api: Api, source: str) -> None:
	"""The Help Centre inputs are indexed by the server's worker; wait until they are."""
	deadline = time.monotonic() + 60
	while time.monotonic() < deadline:
		rows = api.get_list("Knowledge Input", ["status"], {"knowledge_source": source})
		if rows and all(r["status"] == "Indexed" for r in rows):
			return
		time.sleep(0.5)
	raise Failure(f"the knowledge inputs were not indexed within 60 s: {rows}")


# --- the browser --------------------------------------------------------------------------------


def shoot(url: str, records: dict) -> tuple[list[Path], list[str]]:
	"""Run tools/screenshots.mjs; the PNGs it wrote and what went wrong on the pages (error banners,
	console errors)."""
	work = SITES / "browser"
	shutil.rmtree(work, ignore_errors=True)
	config = {
		"base_url": url,
		"chromium": CHROMIUM,
		"user": "Administrator",
		"password": PASSWORD,
		"out_dir": str(work),
		**records,
	}
	proc = subprocess.run(
		["node", str(BROWSER_SCRIPT)],
		env={**os.environ, "HUF_E2E_CONFIG": json.dumps(config)},
		capture_output=True,
		text=True,
		timeout=600,
	)
	if proc.returncode:
		raise Failure(f"the browser script failed:\n{proc.stdout}{proc.stderr}")
	seen = json.loads((work / "result.json").read_text())
	problems = seen["problems"] + [f"console error: {e}" for e in seen.get("console_errors", [])]
	return sorted(work.glob("*.png")), problems


def publish(shots: list[Path]) -> list[tuple[Path, int]]:
	"""Reduce each PNG to a palette (much smaller, same look) and put it in docs/screenshots/."""
	from PIL import Image

	OUT.mkdir(parents=True, exist_ok=True)
	for old in OUT.glob("*.png"):
		old.unlink()
	written = []
	for shot in shots:
		target = OUT / shot.name
		with Image.open(shot) as image:
			image.convert("RGB").quantize(colors=256, method=Image.Quantize.MEDIANCUT).save(
				target, optimize=True
			)
		written.append((target, target.stat().st_size))
	return written


def main() -> int:
	parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
	parser.parse_args()
	problem = missing_prerequisite()
	if problem:
		print(f"cannot take screenshots: {problem}", file=sys.stderr)
		return 1

	from huf.tests.support.llm_server import ScriptedLLM

	server = Server()
	llm = ScriptedLLM().__enter__()
	try:
		print(f"site {SITE} in {SITES.relative_to(ROOT)}")
		make_site()
		server.start()
		print(f"serving {server.url}; scripted LLM at {llm.api_base}")
		api = Api(server.url)
		records = seed_setup(api, llm.api_base)
		records.update(seed_conversation(api, llm))
		history = seed_history(api, llm)
		backdate(history)
		wait_for_knowledge(api, records["knowledge"])
		print(f"seeded: {json.dumps(records)}, {len(history)} earlier runs")
		shots, problems = shoot(server.url, records)
		written = publish(shots)
		for path, size in written:
			print(f"wrote {path.relative_to(ROOT)} ({size // 1024} KB)")
		print(f"{len(written)} screenshots, {sum(s for _p, s in written) // 1024} KB in all")
		for problem in problems:
			print(f"problem: {problem}", file=sys.stderr)
		return 1 if problems else 0
	except (Failure, httpx.HTTPError, subprocess.TimeoutExpired) as error:
		print(f"screenshots failed: {error}", file=sys.stderr)
		return 1
	finally:
		server.stop()
		llm.close()


if __name__ == "__main__":
	sys.exit(main())
