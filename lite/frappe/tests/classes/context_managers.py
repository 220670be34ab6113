"""Frappe's test context managers (each is also a decorator), attached to the test classes as in Frappe."""

from contextlib import contextmanager
from functools import wraps

import frappe

from .integration_test_case import IntegrationTestCase
from .unit_test_case import UnitTestCase


@UnitTestCase.registerAs(staticmethod)
@contextmanager
def set_user(user: str) -> None:
	"""Temporarily: set the user."""
	old_user = frappe.session.user
	frappe.set_user(user)
	yield
	frappe.set_user(old_user)


@UnitTestCase.registerAs(staticmethod)
@contextmanager
def patch_hooks(overridden_hooks: dict) -> None:
	"""Temporarily: patch a hook."""
	from unittest.mock import patch

	get_hooks = frappe.get_hooks

	def patched_hooks(hook=None, default="_KEEP_DEFAULT_LIST", app_name=None):
		if hook in overridden_hooks:
			return overridden_hooks[hook]
		return get_hooks(hook, default, app_name)

	with patch.object(frappe, "get_hooks", patched_hooks):
		yield


@IntegrationTestCase.registerAs(staticmethod)
@contextmanager
def change_settings(doctype, settings_dict=None, /, commit=False, **settings) -> None:
	"""Temporarily: change settings in a settings doctype."""
	import copy

	if settings_dict is None:
		settings_dict = settings

	settings = frappe.get_doc(doctype)
	previous_settings = copy.deepcopy(settings_dict)
	for key in previous_settings:
		previous_settings[key] = getattr(settings, key)

	for key, value in settings_dict.items():
		setattr(settings, key, value)
	settings.save(ignore_permissions=True)
	if commit:
		frappe.db.commit()
	yield
	settings = frappe.get_doc(doctype)
	for key, value in previous_settings.items():
		setattr(settings, key, value)
	settings.save(ignore_permissions=True)
	if commit:
		frappe.db.commit()


@IntegrationTestCase.registerAs(staticmethod)
@contextmanager
def switch_site(site: str) -> None:
	"""Temporarily: drop current connection and switch to a different site."""
	old_site = frappe.local.site
	sites_path = frappe.local.sites_path
	frappe.init(site, sites_path=sites_path, force=True)
	frappe.connect()
	yield
	frappe.destroy()
	frappe.init(old_site, sites_path=sites_path, force=True)
	frappe.connect()


@UnitTestCase.registerAs(staticmethod)
@contextmanager
def debug_on(*exceptions) -> None:
	"""Temporarily: enter the debugger on the given exceptions (default: AssertionError)."""
	import pdb

	if not exceptions:
		exceptions = (AssertionError,)
	try:
		yield
	except exceptions:
		pdb.post_mortem()
		raise


@UnitTestCase.registerAs(staticmethod)
@contextmanager
def timeout_context(seconds=30, error_message="Operation timed out.") -> None:
	"""Temporarily: timeout an operation."""
	import signal

	def _handle_timeout(signum, frame):
		raise Exception(error_message)

	signal.signal(signal.SIGALRM, _handle_timeout)
	signal.alarm(30 if callable(seconds) else seconds)
	yield
	signal.alarm(0)


def timeout(seconds=30, error_message="Operation timed out."):
	"""Timeout decorator to ensure a test doesn't run for too long."""

	def decorator(func=None):
		@wraps(func)
		def wrapper(*args, **kwargs):
			with timeout_context(seconds, error_message):
				return func(*args, **kwargs)

		return wrapper

	if callable(seconds):
		return decorator(seconds)
	return decorator


__all__ = [
	"change_settings",
	"debug_on",
	"patch_hooks",
	"set_user",
	"switch_site",
	"timeout",
	"timeout_context",
]
