"""The install-time LiteLLM check: a missing or broken LiteLLM is reported with the fix, never fatal."""

import contextlib
import io
import os
import shutil
import tempfile
from unittest.mock import patch

from huf import install
from huf.tests.support.case import HufUnitTestCase


class TestLiteLLMCheck(HufUnitTestCase):
	def check(self) -> tuple[bool, str]:
		out = io.StringIO()
		with contextlib.redirect_stdout(out):
			ok = install.check_litellm(timeout=120)
		return ok, out.getvalue()

	def test_an_importable_litellm_passes_quietly(self):
		self.assertEqual(self.check(), (True, ""))

	def test_a_missing_litellm_prints_the_install_command(self):
		with patch.object(install.importlib.util, "find_spec", return_value=None):
			ok, printed = self.check()
		self.assertFalse(ok)
		self.assertIn("LiteLLM is not installed", printed)
		self.assertIn('pip install "litellm', printed)
		self.assertIn("LITELLM_LOCAL_MODEL_COST_MAP=True", printed)

	def test_a_litellm_that_fails_to_import_is_named_with_its_error(self):
		# a litellm module that fails the way a broken dependency does, first on the subprocess's path
		shadow = tempfile.mkdtemp(prefix="huf-broken-litellm-")
		self.addCleanup(shutil.rmtree, shadow, True)
		with open(os.path.join(shadow, "litellm.py"), "w") as f:
			f.write("raise ImportError(\"No module named 'tokenizers'\")\n")
		path = os.pathsep.join(filter(None, (shadow, os.environ.get("PYTHONPATH"))))
		with (
			patch.dict(os.environ, {"PYTHONPATH": path}),
			patch.object(install.metadata, "version", return_value="0.0.0-huf-test"),
		):
			ok, printed = self.check()
		self.assertFalse(ok)
		self.assertIn("LiteLLM fails to import (ImportError: No module named 'tokenizers')", printed)
		self.assertIn("LITELLM_LOCAL_MODEL_COST_MAP", printed)
