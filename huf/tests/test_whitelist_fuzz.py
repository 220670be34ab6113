"""Every whitelisted function of Huf, called over real HTTP with wrong types and odd values.

For each parameter of each whitelisted function (controller methods through run_doc_method), one
call passes a value of the wrong type for the parameter's annotation (an object or a list for text,
text for a number...) and others pass well-typed but odd values (empty, 1 MB, NUL, RTL marks, a lone
surrogate as escaped JSON, emoji, negative and huge numbers); the other arguments name real records. Each call
is made as Administrator and as a Huf User, with a session cookie and CSRF token as the dashboard does.

A call must never get a 5xx; a wrong type gets a 4xx naming the argument (Frappe validates arguments
against the annotations: FrappeTypeError, 417); a refused call changes no stored record (row counts and
last modification of every Huf DocType and File, compared before and after it).

Frappe validates only evaluated annotations: this module (and every module with whitelisted functions)
does without `from __future__ import annotations`.
"""

import json
import random
import re

import frappe
import httpx
from frappe.model import no_value_fields
from frappe.utils.password import update_password

from huf.frappe_compat import FRAPPE_MAJOR
from huf.tests.support import fuzz
from huf.tests.support.case import HufUnitTestCase
from huf.tests.support.jobs import pending_jobs, wait_for_jobs
from huf.tests.support.runs import PASSWORD, RuntimeTestCase, delete_runs_of, make_runtime_agent
from huf.tests.support.web import serve_site
from huf.tests.test_whitelist_audit import controller_doctypes, dotted, huf_whitelisted, import_app_modules

USER = "huf-fuzz-user@example.com"
RECORD = "huf-fuzz-record"
BOOT = re.compile(r"window\.huf_boot = (\{.*?\});</script>", re.DOTALL)
SEED = 20240612
# Calls per caller: every wrong-type call, and a seeded sample of the odd-value calls (about half of
# them; each caller its own sample, so the two cover more): the module stays under ~2 minutes on a bench.
MAX_CALLS = 900

# Calls that gave a server error or changed data before their fix: made by every caller, on every run.
FOUND = {
	"huf.ai.agent_chat.add_message token_estimate=10**20",  # an Int column overflowed
	"huf.ai.agent_chat.add_message context_summary=1 MB of text",  # a TEXT column overflowed (MariaDB)
	"huf.ai.agent_chat.add_message content=a lone surrogate",  # no database encodes it
	"huf.ai.agent_chat.new_conversation message=a lone surrogate",  # 500 after creating the conversation
	"huf.api.triggers.handle_webhook slug=a lone surrogate",
	"huf.ai.media.speech_to_text.transcribe_audio model=blank text",  # sent to the provider: 502
	"huf.ai.sdk_tools.handle_ocr_document pages=a list of null",
	"huf.api.feedback.rate_message comments=1 MB of text",
	"huf.huf.doctype.ai_provider.ai_provider.AIProvider.test_connection [AI Provider] model=1 MB of text",
	"huf.huf.prompt_versions.VersionedPrompt.create_new_version [Agent Prompt] prompt_body=a lone surrogate",
}

# Values of arguments that are not fuzzed in a call: a record of Administrator's, or plain valid input.
RECORD_ARGUMENTS = {
	"agent": "Agent",
	"agent_name": "Agent",
	"conversation": "Agent Conversation",
	"conversation_id": "Agent Conversation",
	"docname": "Agent Conversation",
	"agent_run_id": "Agent Run",
	"agent_message": "Agent Message",
	"server_name": "MCP Server",
	"tool_name": "Agent Tool Function",
	"knowledge_source": "Knowledge Source",
	"knowledge_input": "Knowledge Input",
	"file_id": "File",
}
PLAIN_VALUES = {"method": "GET", "role": "user", "feedback": "up", "slug": RECORD}


def snapshot(doctypes: list[str]) -> list:
	"""Row count and newest modification of each DocType, read in a new transaction."""
	frappe.db.rollback()
	query = " union all ".join(
		f"select '{doctype}', count(*), max(modified) from `tab{doctype}`" for doctype in doctypes
	)
	return [tuple(str(value) for value in row) for row in frappe.db.sql(query)]


class TestWhitelistFuzz(RuntimeTestCase):
	users = ((USER, ("Huf User",)),)

	@classmethod
	def setUpClass(cls):
		super().setUpClass()
		cls.import_errors = import_app_modules()
		cls.records: dict[str, str] = {}
		cls.started = frappe.utils.now()
		cls.addClassCleanup(cls.remove_records)
		cls.keep_singles()
		update_password(USER, PASSWORD)
		cls.make_records()
		frappe.db.commit()
		cls.doctypes = sorted(
			frappe.get_all("DocType", filters={"module": "Huf", "issingle": 0}, pluck="name") + ["File"]
		)
		cls.server, cls.base_url = serve_site()
		cls.addClassCleanup(cls.server.shutdown)

	@classmethod
	def keep_singles(cls) -> None:
		"""Put Huf's Single DocTypes back as they were: calls that succeed (e.g. the Agent Console's
		run_console) store fuzz values there, which a later test or a user would find."""
		singles = frappe.get_all("DocType", filters={"module": "Huf", "issingle": 1}, pluck="name")
		saved = {doctype: frappe.db.get_singles_dict(doctype) for doctype in singles}

		def restore() -> None:
			frappe.db.rollback()
			for doctype, values in saved.items():
				fields = [
					df.fieldname
					for df in frappe.get_meta(doctype).fields
					if df.fieldname and df.fieldtype not in no_value_fields
				]
				frappe.db.set_single_value(doctype, {f: values.get(f) for f in fields})
			frappe.db.commit()

		cls.addClassCleanup(restore)

	@classmethod
	def make_records(cls) -> None:
		"""One record for each argument that names one, all Administrator's, on the scripted provider."""
		cls.remove_leftovers()
		agent = make_runtime_agent(RECORD, allow_chat=1)
		cls.records["Agent"] = agent
		values = {
			"MCP Server": {"server_name": RECORD, "server_url": "http://127.0.0.1:9/mcp"},
			"Agent Tool Function": {
				"tool_name": RECORD,
				"types": "GET",
				"tool_type": "HTTP",
				"description": "fuzz",
				"base_url": "http://127.0.0.1:9",
			},
			"Agent Prompt": {"title": RECORD, "prompt_body": "Be kind."},
			"Agent Summary Prompt": {"title": RECORD, "prompt_body": "Summarise."},
			"Knowledge Source": {"source_name": RECORD, "knowledge_type": "sqlite_fts"},
		}
		for doctype, fields in values.items():
			cls.records[doctype] = frappe.get_doc({"doctype": doctype, **fields}).insert().name
		cls.records["Knowledge Input"] = (
			frappe.get_doc(
				{
					"doctype": "Knowledge Input",
					"knowledge_source": cls.records["Knowledge Source"],
					"input_type": "Text",
					"text": "The fuzz record says hello.",
				}
			)
			.insert()
			.name
		)
		file_doc = frappe.get_doc(
			{"doctype": "File", "file_name": f"{RECORD}.txt", "is_private": 1, "content": b"hello"}
		).insert()
		cls.records["File"] = file_doc.name
		cls.file_url = file_doc.file_url
		cls.records["AI Provider"] = cls.PROVIDER
		frappe.db.commit()
		wait_for_jobs(60)

	def setUp(self) -> None:
		super().setUp()
		self.make_conversation()

	def make_conversation(self) -> None:
		"""A conversation with a message and a run (RuntimeTestCase deletes them after each test)."""
		agent = self.records["Agent"]
		conversation = frappe.get_doc(
			{"doctype": "Agent Conversation", "agent": agent, "user": "Administrator", "channel": "chat"}
		).insert()
		message = frappe.get_doc(
			{"doctype": "Agent Message", "conversation": conversation.name, "role": "agent", "content": "42"}
		).insert()
		run = frappe.get_doc(
			{"doctype": "Agent Run", "agent": agent, "conversation": conversation.name, "status": "Success"}
		).insert(ignore_permissions=True)
		self.records.update(
			{"Agent Conversation": conversation.name, "Agent Message": message.name, "Agent Run": run.name}
		)
		frappe.db.commit()

	@classmethod
	def remove_leftovers(cls) -> None:
		"""Records an interrupted earlier run committed and could not delete."""
		delete_runs_of([RECORD])
		for doctype, field in (
			("Knowledge Source", "source_name"),
			("Agent Prompt", "title"),
			("Agent Prompt", "slug"),  # versions made by accepted calls may have other titles
			("Agent Summary Prompt", "title"),
			("Agent Summary Prompt", "slug"),
			("Agent Tool Function", "tool_name"),
			("MCP Server", "server_name"),
			("File", "file_name"),
		):
			value = f"{RECORD}.txt" if doctype == "File" else RECORD
			for name in frappe.get_all(doctype, filters={field: value}, pluck="name"):
				if doctype == "Knowledge Source":
					frappe.db.delete("Knowledge Input", {"knowledge_source": name})
				frappe.delete_doc(doctype, name, force=True, ignore_permissions=True)
		frappe.db.commit()

	@classmethod
	def remove_records(cls) -> None:
		wait_for_jobs(60)
		frappe.set_user("Administrator")
		frappe.db.rollback()
		cls.remove_leftovers()
		# versions, forks and templates made by accepted calls
		for doctype in ("Agent Prompt", "Agent Summary Prompt"):
			for name in frappe.get_all(doctype, filters={"creation": (">=", cls.started)}, pluck="name"):
				frappe.delete_doc(doctype, name, force=True, ignore_permissions=True)
		if frappe.db.exists("Agent", RECORD):
			frappe.delete_doc("Agent", RECORD, force=True, ignore_permissions=True)
		frappe.db.commit()

	# --- the calls ---------------------------------------------------------------------------------

	def client(self, user: str, password: str) -> httpx.Client:
		"""A session like the dashboard's: logged in, with the CSRF token of the /huf boot data."""
		client = httpx.Client(base_url=self.base_url, timeout=120)
		self.addCleanup(client.close)
		login = client.post("/api/method/login", data={"usr": user, "pwd": password})
		self.assertEqual(login.status_code, 200, login.text)
		boot = json.loads(BOOT.search(client.get("/huf").text).group(1))
		client.headers["X-Frappe-CSRF-Token"] = boot["csrf_token"]
		return client

	def signature_of(self, fn) -> tuple[dict, dict]:
		"""(parameters, annotations) the fuzz uses for `fn`."""
		return fuzz.parameters(fn), fuzz.annotations(fn)

	def base_arguments(self, parameters: dict) -> dict:
		"""Valid values for the required arguments, and real records for every argument naming one."""
		arguments = {}
		for name, parameter in parameters.items():
			if name in RECORD_ARGUMENTS:
				arguments[name] = self.records[RECORD_ARGUMENTS[name]]
			elif name in ("file_url", "audio_file_url"):
				arguments[name] = self.file_url
			elif parameter.default is parameter.empty:
				arguments[name] = PLAIN_VALUES.get(name, "hello")
		return arguments

	def calls(self) -> list[dict]:
		"""Every fuzzed call: label, path, payload, the argument fuzzed and whether its type is wrong."""
		calls = []
		for fn in huf_whitelisted():
			parameters, hints = self.signature_of(fn)
			base = self.base_arguments(parameters)
			doctypes = controller_doctypes(fn) if "." in fn.__qualname__ else [None]
			for name, parameter in parameters.items():
				accepted = fuzz.accepted_types(hints.get(name, parameter.annotation), parameter.default)
				values = [(label, value, True) for label, value in fuzz.wrong_values(accepted)]
				values += [(label, value, False) for label, value in fuzz.odd_values(accepted)]
				for label, value, wrong in values:
					arguments = {**base, name: value}
					for doctype in doctypes:
						calls.append(self.call_of(fn, doctype, arguments, name, label, wrong))
		return calls

	def call_of(self, fn, doctype: str | None, arguments: dict, name: str, label: str, wrong: bool) -> dict:
		"""One call of `fn` (through run_doc_method on a record of `doctype` for a controller method)."""
		if doctype is None:
			path, payload = f"/api/method/{fn.__module__}.{fn.__name__}", arguments
		else:
			record = doctype if frappe.get_meta(doctype).issingle else self.records[doctype]
			path = "/api/method/run_doc_method"
			payload = {"dt": doctype, "dn": record, "method": fn.__name__, "args": json.dumps(arguments)}
		where = f" [{doctype}]" if doctype else ""
		# a GET-only function (an OAuth redirect) takes its arguments from the query string, where every
		# value is text: a wrong type cannot be sent, the odd values still must not give a 5xx
		method = (
			"POST"
			if "POST" in (frappe.allowed_http_methods_for_whitelisted_func.get(fn) or ["POST"])
			else "GET"
		)
		return {
			"label": f"{dotted(fn)}{where} {name}={label}",
			"path": path,
			"method": method,
			"body": json.dumps(payload),
			"argument": name,
			"wrong": wrong and method == "POST",
		}

	def sample(self, calls: list[dict], seed: str) -> list[dict]:
		"""All wrong-type calls and FOUND ones, then odd-value calls sampled with a fixed seed (MAX_CALLS)."""
		labels = {call["label"] for call in calls}
		self.assertFalse(FOUND - labels, "FOUND names calls the fuzz no longer makes")
		chosen = [call for call in calls if call["wrong"] or call["label"] in FOUND]
		rest = [call for call in calls if not (call["wrong"] or call["label"] in FOUND)]
		room = max(MAX_CALLS - len(chosen), 0)
		return chosen + random.Random(f"{SEED}:{seed}").sample(rest, min(room, len(rest)))

	def refused_by_name(self, call: dict, response: httpx.Response) -> bool:
		"""Frappe's FrappeTypeError (417) naming the argument; for a controller method also Frappe's 403
		when the caller may not read the document (run_doc_method checks that before the method)."""
		if call["path"].endswith("/run_doc_method") and response.status_code == 403:
			return True
		return response.status_code == 417 and f"Argument '{call['argument']}'" in response.text

	def fuzz(self, client: httpx.Client, seed: str) -> list[str]:
		"""Make the calls; the problems found (a 5xx, a wrong type not refused by name, refused but changed)."""
		problems = []
		before = snapshot(self.doctypes)
		for call in self.sample(self.calls(), seed):
			if call["method"] == "GET":
				params = {
					key: value if isinstance(value, str) else json.dumps(value)
					for key, value in json.loads(call["body"]).items()
				}
				response = client.get(call["path"], params=params)
			else:
				response = client.post(
					call["path"], content=call["body"], headers={"Content-Type": "application/json"}
				)
			status, text = response.status_code, response.text
			if status >= 500:
				problems.append(f"{call['label']}: {status} {text[:300]}")
			elif call["wrong"] and not self.refused_by_name(call, response):
				problems.append(f"{call['label']}: wrong type answered {status} {text[:300]}")
			if status < 400:
				if pending_jobs():  # what an accepted call queued may write: wait before the next snapshot
					wait_for_jobs(60)
				before = snapshot(self.doctypes)
				continue
			after = snapshot(self.doctypes)
			if after != before:
				changed = sorted({row[0] for row in set(after) ^ set(before)})
				problems.append(f"{call['label']}: refused with {status} but changed {changed}")
				before = after
		return problems

	# --- the tests ---------------------------------------------------------------------------------

	def test_every_argument_carries_a_type_frappe_checks(self):
		self.assertEqual(self.import_errors, [])
		unchecked = []
		for fn in huf_whitelisted():
			target = fuzz.target_function(fn)
			for name in fuzz.parameters(target):
				annotation = target.__annotations__.get(name)
				if annotation is None or isinstance(annotation, str):
					unchecked.append(f"{dotted(fn)}: {name} ({annotation!r})")
		self.assertFalse(unchecked, "Frappe validates only evaluated annotations:\n" + "\n".join(unchecked))

	def test_as_administrator(self):
		problems = self.fuzz(self.client("Administrator", self.ADMIN_PASSWORD), "Administrator")
		self.assertFalse(problems, "\n".join(problems))

	def test_as_huf_user(self):
		problems = self.fuzz(self.client(USER, PASSWORD), USER)
		self.assertFalse(problems, "\n".join(problems))


class TestFrappeArgumentValidation(HufUnitTestCase):
	"""What `@frappe.whitelist()` does with arguments, the same on a bench and on Frappe Lite."""

	def test_arguments_are_cast_or_refused_by_name(self):
		@frappe.whitelist()
		def add(a: int, b: int = 1, tags: list | str | None = None) -> int:
			return a + b

		self.assertEqual(add("2", b=3), 5)
		self.assertEqual(add(2, tags=["x"]), 3)
		with self.assertRaises(frappe.FrappeTypeError) as caught:
			add({"nested": 1})
		# Frappe 16 (and Lite) name the function too, Frappe 15 only the argument
		where = "" if FRAPPE_MAJOR == 15 else f" in '{__name__}.{add.__qualname__}'"
		self.assertEqual(
			str(caught.exception), f"Argument 'a'{where} should be of type 'int' but got 'dict' instead."
		)
		self.assertEqual(caught.exception.http_status_code, 417)
		with self.assertRaisesRegex(frappe.FrappeTypeError, "Argument 'tags'"):
			add(1, tags={"a": 1})

	def test_string_annotations_are_not_checked(self):
		@frappe.whitelist()
		def echo(value: "int"):  # noqa: UP037 - what `from __future__ import annotations` leaves
			return value

		self.assertEqual(echo({"nested": 1}), {"nested": 1})

	def test_only_plain_functions_can_be_whitelisted(self):
		def ping(value: int) -> int:
			return value

		for wrapped in (classmethod(ping), staticmethod(ping)):
			with self.assertRaises(AttributeError):
				frappe.whitelist()(wrapped)
