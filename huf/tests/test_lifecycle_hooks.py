"""Huf's install, uninstall and migrate hooks take the arguments Frappe calls them with."""

import inspect

import frappe

from huf.tests.support.case import HufTestCase


class TestLifecycleHooks(HufTestCase):
	# Hook -> the arguments Frappe calls its functions with.
	HOOK_ARGUMENTS = {
		"before_install": (),
		"after_install": (),
		"before_uninstall": (),
		"after_uninstall": (),
		"before_migrate": (),
		"after_migrate": (),
		"before_tests": (),
		"before_app_install": ("another_app",),
		"after_app_install": ("another_app",),
		"before_app_uninstall": ("another_app",),
		"after_app_uninstall": ("another_app",),
	}

	def test_install_and_uninstall_hooks_take_the_arguments_frappe_passes(self):
		checked, problems = [], []
		for hook, arguments in self.HOOK_ARGUMENTS.items():
			for path in frappe.get_hooks(hook, app_name="huf"):
				try:
					inspect.signature(frappe.get_attr(path)).bind(*arguments)
				except TypeError as exc:
					problems.append(f"{hook} = {path}: {exc}")
				checked.append(hook)
		self.assertIn("after_install", checked)
		self.assertIn("after_migrate", checked)
		self.assertEqual(problems, [])
