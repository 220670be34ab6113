"""Loading frappe, the web app, huf's hooks and every DocType controller must not pull in the heavy
AI libraries (litellm alone costs ~10 s cold); they are imported inside the functions that use them."""

import subprocess
import sys
import textwrap

from huf.tests.support.case import HufUnitTestCase

HEAVY = ("litellm", "chromadb", "llama_index", "openai", "mcp", "opentelemetry")

PROBE = textwrap.dedent(
	"""
	import importlib, pkgutil, sys
	import frappe, frappe.app, huf, huf.hooks, huf.install
	import huf.huf.doctype as doctypes
	for info in pkgutil.walk_packages(doctypes.__path__, "huf.huf.doctype."):
		if not info.name.rsplit(".", 1)[-1].startswith("test_"):
			importlib.import_module(info.name)
	print(" ".join(sorted({m.split(".")[0] for m in sys.modules} & set(sys.argv[1:]))))
	"""
)


class TestLazyImports(HufUnitTestCase):
	def test_frappe_and_huf_import_without_heavy_libraries(self):
		out = subprocess.run(
			[sys.executable, "-c", PROBE, *HEAVY], capture_output=True, text=True, timeout=120
		)
		self.assertEqual(out.returncode, 0, out.stderr)
		self.assertEqual(out.stdout.strip(), "", f"imported eagerly: {out.stdout.strip()}")
