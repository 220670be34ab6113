"""Every whitelisted function of Huf, called over real HTTP as Guest and as a user without roles.

The audit imports every module of the app (tests excepted), collects the functions in
`frappe.whitelisted` (controller methods too, through run_doc_method on a real record) and calls
each three times: with no arguments, with placeholders naming no record, and with records of
Administrator's. Neither caller may get a 500 or a 200 carrying data: they get a permission or input
error (401/403/404/405/409/400/417); a call without a required argument gets 417 naming it
(huf/request_errors.py), never Frappe's TypeError 500.
Functions open on purpose are listed below with the reason; a new guest endpoint or a GET that may
change state fails the audit until it is reviewed and listed. A last test checks that a provider
key used by runs over HTTP shows up nowhere (environ, logs, Error Logs, records, responses).
"""

from __future__ import annotations

import glob
import importlib
import inspect
import json
import os
import pkgutil
import re

import frappe
import httpx
from frappe.utils import get_site_path
from frappe.utils.password import update_password

import huf
from huf.tests.support.case import HufTestCase
from huf.tests.support.factories import make_agent, make_user
from huf.tests.support.llm_server import Reply
from huf.tests.support.runs import API_KEY, RuntimeTestCase, delete_runs_of
from huf.tests.support.web import serve_site

NO_ROLES = "huf-audit-no-roles@example.com"
VIEWER = "huf-audit-viewer@example.com"
KEY_USER = "huf-audit-key-user@example.com"
RUN = "/api/method/huf.ai.agent_integration.run_agent_sync"
STATUS = "/api/method/huf.ai.agent_integration.get_agent_run_status"
PASSWORD = "Huf-Audit-Pass-7q"
REFUSED = {400, 401, 403, 404, 405, 409, 417}
BOOT = re.compile(r"window\.huf_boot = (\{.*?\});</script>", re.DOTALL)
RECORD = "huf-audit-record"
MISSING = "huf-audit-no-such-record"

# allow_guest endpoints, each with the reason it is open. Anything else must refuse guests.
GUEST_ALLOWED = {
	"huf.ai.agent_integration.run_agent_sync": "runs only agents with Allow Guest (huf.huf.run_access.check_can_run)",
	"huf.ai.agent_integration.get_agent_run_status": "a guest polls its own run with the run's session id",
	"huf.ai.chat_api.run_agent_sync_chat": "run_agent_sync with create_new: the same checks (huf.huf.run_access.check_can_run)",
	"huf.api.triggers.handle_webhook": "external systems call webhooks; the trigger's secret key is checked (403)",
	"huf.ai.flow_api.flow_webhook": "external systems start webhook flows; the flow's key is checked (403)",
	"huf.api.channels.telegram_update": "Telegram's webhook; the settings' secret token is checked (403)",
	"huf.api.channels.slack_event": "Slack's Events API; the request signature and timestamp are checked (403)",
	"huf.api.channels.elevenlabs_health": "answers {ok: true} and nothing else",
	"huf.api.health": "answers guests {ok: true} and nothing else; the checks only to managers",
	"huf.api.channels.elevenlabs_webhook": "ElevenLabs' post-call webhook; its HMAC signature and timestamp are checked (403)",
	"huf.api.mcp_server.handle": "MCP clients; a guest is answered 401 whatever it asks (huf.ai.mcp_server.handler)",
}

# Functions that accept GET: they only read (a GET is not CSRF-checked, so it must never change state).
READ_ONLY = {
	# MCP's transport: GET (and DELETE) are answered 405 and change nothing; it acts on POST only
	"huf.api.mcp_server.handle",
	"huf.api.integrations.list_integrations",
	"huf.api.budgets.list_budgets",
	# Google redirects here with GET; it acts only with the one-time state issued to the same user
	"huf.api.integrations.oauth_callback",
	"huf.api.channels.elevenlabs_health",
	"huf.api.health",
	"huf.api.channels.elevenlabs_agent_id",
	"huf.api.channels.elevenlabs_signed_url",
	"huf.api.client.get_count",
	"huf.api.evals.list_cases",
	"huf.api.evals.list_eval_runs",
	"huf.api.evals.get_eval_run",
	"huf.api.evals.compare_eval_runs",
	"huf.ai.agent_chat.get_history",
	"huf.ai.agent_chat.get_agent_chat_messages",
	"huf.api.conversations.list_conversations",
	"huf.ai.agent_chat.render_markdown",
	"huf.ai.conversation_data_tools.api_get_conversation_data",
	"huf.huf.doctype.ai_model.ai_model.get_models_by_modality",
	"huf.huf.doctype.ai_provider.ai_provider.get_provider_settings",
	"huf.api.providers.get_provider_models",
	"huf.huf.doctype.agent.agent.get_cacheable_models",
	"huf.api.agents.get_new_agent_defaults",
	"huf.api.knowledge.input_pieces",
	"huf.ai.app_seeding.exporter.export_agent_to_seed",
	"huf.ai.app_seeding.exporter.export_knowledge_to_seed",
	"huf.ai.app_seeding.exporter.export_prompt_to_seed",
	"huf.ai.app_seeding.exporter.export_tool_to_seed",
	"huf.ai.app_seeding.exporter.export_trigger_to_seed",
	"huf.ai.agent_integration.get_agent_run_status",
	"huf.api.flows.export_flow",
	"huf.ai.flow_api.get_flow_definition",
	"huf.ai.flow_api.get_flow_run",
	"huf.api.flows.get_flow_run_timeline",
	"huf.ai.flow_api.get_flow_schedule",
	"huf.ai.flow_api.get_node_schemas",
	"huf.ai.flow_api.get_pending_approvals",
	"huf.ai.flow_api.list_flow_runs",
	"huf.api.flows.list_flows",
	"huf.api.flows.list_pending_approvals",
	"huf.api.flows.list_pending_inputs",
	"huf.api.approvals.list_pending_tool_approvals",
	"huf.api.approvals.list_tool_approval_grants",
	"huf.ai.knowledge.retriever.knowledge_search",
	"huf.ai.mcp_client.get_agent_mcp_servers",
	"huf.ai.mcp_client.get_available_mcp_servers",
	"huf.api.orchestration.get_orchestration",
	"huf.ai.mcp_client.test_mcp_connection",
	"huf.api.prompts.get_prompt",
	"huf.api.providers.get_provider_routes",
	"huf.ai.prompt_api.get_summary_version_history",
	"huf.ai.prompt_api.get_version_history",
	"huf.api.prompts.list_prompts",
	"huf.api.prompts.used_by",
	"huf.api.triggers.list_agent_triggers",
	"huf.ai.permissions_api.get_capabilities_catalogue",
	"huf.ai.permissions_api.get_huf_roles",
	"huf.ai.permissions_api.get_users",
	"huf.permissions.get_me",
	"huf.api.feedback.get_message_feedback",
	"huf.huf.doctype.knowledge_source.knowledge_source.test_search",
	"huf.huf.doctype.agent_trigger.agent_trigger.get_trigger_type",
	"huf.huf.doctype.agent_tool_function.agent_tool_function.AgentToolFunction.fetch_parameters_from_code",
	"huf.huf.doctype.mcp_server.mcp_server.MCPServer.test_connection",
	"huf.huf.doctype.huf_data_table.api.get_table_record_counts",
	"huf.huf.doctype.huf_data_table.api.get_table_schema",
	"huf.api.data_tables.list_data_tables",
	"huf.api.data_tables.get_records",
	"huf.api.data_tables.export_csv",
}

# A user without roles may get a 200 from these, but only with an empty answer (no records leak).
EMPTY_FOR_NO_ROLES = {
	"huf.ai.mcp_client.get_available_mcp_servers": "a permission-filtered list (frappe.get_list)",
	"huf.ai.knowledge.retriever.knowledge_search": "searches only the Knowledge Sources the caller may read",
	"huf.api.flows.list_pending_approvals": "only the runs waiting for the caller's own approval",
	"huf.api.flows.list_pending_inputs": "only the input requests assigned to the caller",
	"huf.ai.flow_api.get_pending_approvals": "upstream's name of list_pending_approvals: the caller's own",
	"huf.api.approvals.list_pending_tool_approvals": "only the tool calls the caller may decide",
}

# Answer any signed-in user about themselves only (no one else's records).
OWN_DATA = {
	"huf.permissions.get_me": "the caller's own name, roles and capabilities",
	"huf.www.huf.get_context_for_dev": "the caller's own boot data, as /huf embeds it",
}

FORBIDDEN_PARAMETERS = {"ignore_permissions", "ignore_user_permissions"}


def import_app_modules() -> list[str]:
	"""Import every module of huf except tests; return the names that failed."""
	failed = []
	for module in pkgutil.walk_packages(huf.__path__, "huf."):
		if is_test_module(module.name):
			continue
		try:
			importlib.import_module(module.name)
		except Exception as exc:
			failed.append(f"{module.name}: {exc!r}")
	return failed


def dotted(fn) -> str:
	return f"{fn.__module__}.{fn.__qualname__}"


def is_test_module(name: str) -> bool:
	return any(part.startswith("test_") for part in name.split("."))


def huf_whitelisted() -> list:
	"""The whitelisted functions of the app (those of test modules other tests imported excluded)."""
	return sorted(
		(
			fn
			for fn in frappe.whitelisted
			if fn.__module__.startswith("huf.") and not is_test_module(fn.__module__)
		),
		key=dotted,
	)


# Arguments naming a record: the real-records pass passes a record of Administrator's.
RECORD_ARGUMENTS = {
	"agent": "Agent",
	"agent_name": "Agent",
	"conversation": "Agent Conversation",
	"conversation_id": "Agent Conversation",
	"agent_run_id": "Agent Run",
	"agent_message": "Agent Message",
	"server_name": "MCP Server",
	"tool_name": "Agent Tool Function",
	"knowledge_source": "Knowledge Source",
}


def required_arguments(fn, records: dict | None = None) -> dict:
	"""A value for each required argument of `fn`: a placeholder naming no record, or with `records`
	the record named by an argument (required or not) and plain text for the others."""
	arguments = {}
	for name, parameter in inspect.signature(fn).parameters.items():
		if parameter.kind in (parameter.VAR_POSITIONAL, parameter.VAR_KEYWORD):
			continue
		if records is not None and name in RECORD_ARGUMENTS:
			arguments[name] = records[RECORD_ARGUMENTS[name]]
		elif parameter.default is parameter.empty:
			arguments[name] = "hello" if records is not None else MISSING
	return arguments


def controller_doctypes(fn) -> list[str]:
	"""The DocTypes whose controller class has the whitelisted method `fn`."""
	from frappe.model.base_document import get_controller

	doctypes = []
	for name in frappe.get_all("DocType", filters={"module": "Huf"}, pluck="name"):
		method = getattr(get_controller(name), fn.__name__, None)
		if getattr(method, "__func__", method) is fn:
			doctypes.append(name)
	return doctypes


class TestWhitelistAudit(HufTestCase):
	maxDiff = None

	@classmethod
	def setUpClass(cls):
		super().setUpClass()
		cls.import_errors = import_app_modules()
		cls.functions = huf_whitelisted()
		cls.records = {}
		cls.addClassCleanup(cls.remove_records)
		make_user(NO_ROLES)
		make_user(VIEWER, "Huf Viewer")
		update_password(NO_ROLES, PASSWORD)
		cls.make_records()
		frappe.db.commit()
		cls.server, base = serve_site()
		cls.addClassCleanup(cls.server.shutdown)
		cls.guest = httpx.Client(base_url=base, timeout=30)
		cls.user = httpx.Client(base_url=base, timeout=30)
		cls.addClassCleanup(cls.guest.close)
		cls.addClassCleanup(cls.user.close)
		login = cls.user.post("/api/method/login", data={"usr": NO_ROLES, "pwd": PASSWORD})
		assert login.status_code == 200, login.text
		boot = json.loads(BOOT.search(cls.user.get("/huf").text).group(1))
		cls.user.headers["X-Frappe-CSRF-Token"] = boot["csrf_token"]

	@classmethod
	def make_records(cls) -> None:
		"""One record of each DocType with whitelisted controller methods (created as Administrator)."""
		tool_type = frappe.get_all("Agent Tool Type", limit=1, pluck="name")
		values = {
			"Agent Tool Function": {
				"tool_name": RECORD,
				"types": "Get Document",
				"reference_doctype": "ToDo",
				"tool_type": tool_type[0] if tool_type else None,
				"description": "audit",
			},
			"MCP Server": {"server_name": RECORD, "server_url": "http://127.0.0.1:9/mcp"},
			"Agent Prompt": {"title": RECORD, "prompt_body": "Be kind."},
			"Agent Summary Prompt": {"title": RECORD, "prompt_body": "Summarise."},
			"Knowledge Source": {"source_name": RECORD, "knowledge_type": "sqlite_fts"},
			"AI Provider": {"provider_name": RECORD},
			"Integration Settings": {"label": RECORD, "service": "telegram", "is_active": 0},
		}
		cls.remove_leftovers(values)
		for doctype, fields in values.items():
			doc = frappe.get_doc({"doctype": doctype, **fields}).insert(ignore_permissions=True)
			cls.records[doctype] = doc.name
		cls.records["Agent"] = make_agent(
			RECORD, allow_chat=1, agent_mcp_server=[{"mcp_server": RECORD, "enabled": 1}]
		).name
		conversation = frappe.get_doc(
			{"doctype": "Agent Conversation", "agent": RECORD, "user": "Administrator", "channel": "chat"}
		).insert(ignore_permissions=True)
		cls.records["Agent Conversation"] = conversation.name
		message = frappe.get_doc(
			{"doctype": "Agent Message", "conversation": conversation.name, "role": "agent", "content": "42"}
		).insert(ignore_permissions=True)
		cls.records["Agent Message"] = message.name
		run = frappe.get_doc(
			{"doctype": "Agent Run", "agent": RECORD, "conversation": conversation.name, "status": "Success"}
		).insert(ignore_permissions=True)
		cls.records["Agent Run"] = run.name
		trigger = frappe.get_doc(
			{"doctype": "Agent Trigger", "trigger_name": RECORD, "agent": RECORD, "trigger_type": "Manual"}
		).insert(ignore_permissions=True)
		cls.records["Agent Trigger"] = trigger.name

	@classmethod
	def remove_leftovers(cls, values: dict) -> None:
		"""Records an interrupted earlier run committed and could not delete."""
		delete_runs_of([RECORD])
		for name in frappe.get_all("Agent Trigger", filters={"trigger_name": RECORD}, pluck="name"):
			frappe.delete_doc("Agent Trigger", name, force=True, ignore_permissions=True)
		if frappe.db.exists("Agent", RECORD):
			frappe.delete_doc("Agent", RECORD, force=True, ignore_permissions=True)
		for doctype, fields in values.items():
			key = next(iter(fields))
			for name in frappe.get_all(doctype, filters={key: RECORD}, pluck="name"):
				frappe.delete_doc(doctype, name, force=True, ignore_permissions=True)

	@classmethod
	def remove_records(cls):
		frappe.db.rollback()
		for doctype, name in reversed(cls.records.items()):
			frappe.delete_doc(doctype, name, force=True, ignore_permissions=True)
		for user in (NO_ROLES, VIEWER):
			if frappe.db.exists("User", user):
				frappe.delete_doc("User", user, force=True, ignore_permissions=True)
		frappe.db.commit()

	def targets(self, filled: str = ""):
		"""(label, path, payload) for every whitelisted function: module functions and controller methods.

		`filled`: "" sends no arguments, "placeholder" required ones naming no record, "records" real
		records of Administrator's where an argument names one.
		"""
		for fn in self.functions:
			if "." not in fn.__qualname__:
				payload = {}
				if filled:
					payload = required_arguments(fn, self.records if filled == "records" else None)
				yield dotted(fn), f"/api/method/{fn.__module__}.{fn.__name__}", payload
				continue
			doctypes = controller_doctypes(fn)
			self.assertTrue(doctypes, f"no DocType found for the controller method {dotted(fn)}")
			for doctype in doctypes:
				meta = frappe.get_meta(doctype)
				name = doctype if meta.issingle else self.records.get(doctype)
				self.assertTrue(name, f"the audit needs a record of {doctype} for {dotted(fn)}")
				yield (
					f"{dotted(fn)} [{doctype}]",
					"/api/method/run_doc_method",
					{"dt": doctype, "dn": name, "method": fn.__name__},
				)

	def call(self, client: httpx.Client, path: str, payload: dict, method: str = "POST") -> httpx.Response:
		if method == "GET":
			return client.get(path, params=payload)
		return client.post(path, json=payload)

	def test_every_module_imports(self):
		self.assertEqual(self.import_errors, [])
		self.assertGreater(len(self.functions), 30)

	def check_refused(self, client: httpx.Client, empty_data_ok: dict) -> list[str]:
		"""Call everything in the three passes (see `targets`); list the answers that are not refusals."""
		problems = []
		for filled in ("", "placeholder", "records"):
			for label, path, payload in self.targets(filled):
				response = self.call(client, path, payload)
				status = response.status_code
				if status == 200 and label in OWN_DATA:
					continue
				if status == 200 and label in empty_data_ok:
					if response.json().get("message") not in (None, [], {}):
						problems.append(f"{label}: 200 with data {response.text[:200]}")
				elif status not in REFUSED:
					problems.append(f"{label} {payload}: {status} {response.text[:200]}")
				elif "Traceback" in response.text:
					problems.append(f"{label}: {status} shows a traceback")
		return problems

	def test_guests_reach_only_the_documented_endpoints(self):
		guest_open = {dotted(fn) for fn in self.functions if fn in frappe.guest_methods}
		self.assertEqual(guest_open, set(GUEST_ALLOWED))
		self.assertEqual(self.check_refused(self.guest, {}), [])

	def test_a_user_without_roles_gets_errors_not_data(self):
		self.assertEqual(self.check_refused(self.user, EMPTY_FOR_NO_ROLES), [])

	def test_state_changing_functions_refuse_get(self):
		accepting_get = sorted(
			dotted(fn)
			for fn in self.functions
			if "GET" in (frappe.allowed_http_methods_for_whitelisted_func.get(fn) or ["GET"])
		)
		self.assertEqual([name for name in accepting_get if name not in READ_ONLY], [])
		refused = []
		for label, path, payload in self.targets():
			name = label.split(" [")[0]
			if name in READ_ONLY:
				continue
			response = self.call(self.user, path, payload, method="GET")
			if response.status_code not in (403, 405):
				refused.append(f"{label}: GET answered {response.status_code}")
		self.assertEqual(refused, [])

	def test_agent_mcp_servers_lists_only_servers_the_caller_may_read(self):
		from huf.ai.mcp_client import get_agent_mcp_servers

		self.assertEqual([s["mcp_server"] for s in get_agent_mcp_servers(RECORD)], [RECORD])
		with self.set_user(VIEWER):  # reads agents, not MCP servers
			self.assertEqual(get_agent_mcp_servers(RECORD), [])

	def test_no_caller_controlled_ignore_permissions(self):
		offending = [
			dotted(fn)
			for fn in self.functions
			if FORBIDDEN_PARAMETERS & set(inspect.signature(fn).parameters)
		]
		self.assertEqual(offending, [])


class TestProviderKeyStaysSecret(RuntimeTestCase):
	"""After runs over HTTP (one failing with the key in the upstream error), the key is nowhere to see."""

	users = ((KEY_USER, ("Huf User",)),)

	def test_the_key_is_not_in_environ_logs_records_or_responses(self):
		agent = self.make_agent("Huf Audit Secret Agent")
		update_password(KEY_USER, PASSWORD)
		frappe.db.commit()
		server, base_url = serve_site()
		self.addCleanup(server.shutdown)
		client = httpx.Client(base_url=base_url, timeout=60)
		self.addCleanup(client.close)
		self.assertEqual(
			client.post("/api/method/login", data={"usr": KEY_USER, "pwd": PASSWORD}).status_code, 200
		)
		boot = json.loads(BOOT.search(client.get("/huf").text).group(1))
		client.headers["X-Frappe-CSRF-Token"] = boot["csrf_token"]

		self.llm.queue("fine")
		ok = client.post(RUN, json={"agent_name": agent, "prompt": "hi", "now": 1})
		# as OpenAI does, the provider's error quotes the key; auth errors are not retried
		self.llm.queue(Reply(status=401, error=f"Incorrect API key provided: {API_KEY}"))
		failed = client.post(RUN, json={"agent_name": agent, "prompt": "hi again", "now": 1})
		self.llm.queue(Reply(status=401, error=f"Incorrect API key provided: {API_KEY}"))
		streamed = client.post(
			f"/huf/stream/{agent}", json={"prompt": "and again"}, headers={"Accept": "text/event-stream"}
		)
		run_id = failed.json()["message"]["agent_run_id"]
		status = client.get(STATUS, params={"agent_run_id": run_id})
		self.assertEqual(self.llm.chat_requests[0]["headers"]["authorization"], f"Bearer {API_KEY}")
		self.assertTrue(ok.json()["message"]["success"])
		self.assertEqual(status.json()["message"]["status"], "Failed")
		self.assertIn("refused the API key", streamed.text)

		for response in (ok, failed, streamed, status):
			self.assertNotIn(API_KEY, response.text, response.request.url)
		self.assertFalse([name for name, value in os.environ.items() if API_KEY in value])
		frappe.db.rollback()
		conversations = frappe.get_all("Agent Conversation", filters={"agent": agent}, pluck="name")
		self.assertTrue(conversations)
		for doctype, field in (
			("Agent Run", "agent"),
			("Agent Conversation", "agent"),
			("Agent Message", "conversation"),
			("Agent Tool Call", "conversation"),
		):
			value = agent if field == "agent" else ("in", conversations)
			for name in frappe.get_all(doctype, filters={field: value}, pluck="name"):
				self.assertNotIn(API_KEY, frappe.get_doc(doctype, name).as_json(), f"{doctype} {name}")
		errors = frappe.get_all("Error Log", fields=["method", "error"], limit=200, order_by="creation desc")
		self.assertFalse([e.method for e in errors if API_KEY in f"{e.method} {e.error}"])
		for path in glob.glob(os.path.join(get_site_path("logs"), "*.log*")):
			with open(path, errors="replace") as f:
				self.assertNotIn(API_KEY, f.read(), path)
