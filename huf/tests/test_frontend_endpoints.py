"""Every server method the dashboard and Huf's Desk scripts call exists and is whitelisted (form calls:
a whitelisted method of the DocType's controller)."""

import json
import os
import re

import frappe

from huf.tests.support.case import HufTestCase


class TestFrontendEndpoints(HufTestCase):
	METHOD = re.compile(r"""["'`](huf(?:\.\w+)+)["'`]|/api/method/(huf(?:\.\w+)+)""")
	CONSTANT = re.compile(r"""const\s+(\w+)\s*=\s*["'](huf(?:\.\w+)+)["']""")
	FORM_CALL = re.compile(r"""frm\.call\(\{\s*method:\s*["'](\w+)["']""")

	def test_every_server_method_the_ui_calls_is_whitelisted(self):
		from huf.tests.test_whitelist_audit import import_app_modules

		import_app_modules()
		root = os.path.dirname(frappe.get_app_path("huf"))
		called, problems = [], []
		for path in self.ui_files(root):
			with open(path) as f:
				text = f.read()
			prefixes = set()
			for name, value in self.CONSTANT.findall(text):
				text = text.replace("${" + name + "}", value)
				prefixes.add(value)
			for match in self.METHOD.finditer(text):
				method = match.group(1) or match.group(2)
				if method not in prefixes:
					called.append(method)
					problems += self.check(method, os.path.relpath(path, root))
			for method in self.FORM_CALL.findall(text):
				called.append(method)
				problems += self.check_controller_method(path, method)
		self.assertGreaterEqual(len(called), 15, called)
		self.assertIn("huf.ai.agent_chat.create_conversation", called)
		self.assertIn("fetch_parameters_from_code", called)
		self.assertEqual(problems, [])

	@staticmethod
	def ui_files(root: str) -> list[str]:
		"""The dashboard's sources and Huf's Desk scripts (not the built bundle, not unit tests)."""
		files = []
		for folder, skip in (
			(os.path.join(root, "frontend", "src"), ()),
			(os.path.join(root, "huf"), ("public/frontend",)),
		):
			for dirpath, _dirnames, filenames in os.walk(folder):
				if "node_modules" in dirpath or any(s in dirpath for s in skip):
					continue
				files += [
					os.path.join(dirpath, f)
					for f in filenames
					if f.endswith((".ts", ".tsx", ".js", ".html")) and ".test." not in f
				]
		return sorted(files)

	@staticmethod
	def check(method: str, where: str) -> list[str]:
		try:
			function = frappe.get_attr(method)
		except Exception:
			return [f"{where}: {method} does not exist"]
		if getattr(function, "__func__", function) not in frappe.whitelisted:
			return [f"{where}: {method} is not whitelisted"]
		return []

	@staticmethod
	def check_controller_method(path: str, method: str) -> list[str]:
		from frappe.model.base_document import get_controller

		schema = os.path.splitext(path)[0] + ".json"
		if not os.path.exists(schema):
			return [f"{path}: frm.call({method}) outside a DocType's form script"]
		with open(schema) as f:
			doctype = json.load(f)["name"]
		function = getattr(get_controller(doctype), method, None)
		if function is None or getattr(function, "__func__", function) not in frappe.whitelisted:
			return [
				f"{doctype}: the form calls {method}, which is not a whitelisted method of its controller"
			]
		return []
