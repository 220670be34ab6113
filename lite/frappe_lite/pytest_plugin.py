"""pytest plugin `frappe_lite`: one throw-away site per session, connected as Frappe's runner connects.

Configure the apps to install with the ini option `frappe_apps` (frappe is implicit), or `--frappe-apps`.
The site lives in a temporary sites folder: `HUF_SITES_PATH` (for `huf` commands) and `frappe.app._sites_path`
(for Frappe's WSGI `application`) point there while the tests run. unittest classes run as under
`bench run-tests` (IntegrationTestCase rolls back once per class); plain test functions are rolled back.
"""

from __future__ import annotations

import os
import shutil
import tempfile

import pytest

TEST_SITE = "test_site"
ADMIN_PASSWORD = "admin"


def pytest_addoption(parser: pytest.Parser) -> None:
	parser.addini("frappe_apps", type="args", default=[], help="apps installed on the frappe_lite test site")
	group = parser.getgroup("frappe_lite")
	group.addoption(
		"--frappe-apps", default=None, help="comma separated apps for the test site (overrides the ini)"
	)
	group.addoption(
		"--frappe-keep-site", action="store_true", help="keep the temporary test site after the run"
	)


def _apps(config: pytest.Config) -> list[str] | None:
	option = config.getoption("--frappe-apps")
	if option is not None:
		return [a.strip() for a in option.split(",") if a.strip() and a.strip() != "frappe"]
	if os.environ.get("FRAPPE_TEST_APPS") is not None:
		return [a for a in os.environ["FRAPPE_TEST_APPS"].split(",") if a and a != "frappe"]
	apps = config.getini("frappe_apps")
	if not apps:
		return None
	return [a for a in apps if a != "frappe"]


def pytest_sessionstart(session: pytest.Session) -> None:
	config = session.config
	apps = _apps(config)
	if apps is None:
		return
	import frappe
	import frappe.app

	from frappe_lite.installer import new_site
	from frappe_lite.testing import test_site

	sites_path = tempfile.mkdtemp(prefix="frappe-test-sites-")
	state = {
		"sites_path": sites_path,
		"old_env": os.environ.get("HUF_SITES_PATH"),
		"keep": config.getoption("--frappe-keep-site"),
		"old_app_sites_path": frappe.app._sites_path,
	}
	os.environ["HUF_SITES_PATH"] = sites_path
	with open(os.path.join(sites_path, "apps.txt"), "w") as f:
		f.write("".join(app + "\n" for app in apps))
	new_site(
		TEST_SITE,
		ADMIN_PASSWORD,
		sites_path=sites_path,
		apps=apps,
		site_config={"admin_password": ADMIN_PASSWORD, "allow_tests": True},
	)
	test_site.update(site=TEST_SITE, sites_path=sites_path)
	frappe.app._sites_path = sites_path
	frappe.init(TEST_SITE, sites_path=sites_path, force=True)
	frappe.connect()
	frappe.flags.in_test = True
	config._frappe_lite = state


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
	state = getattr(session.config, "_frappe_lite", None)
	if not state:
		return
	import frappe
	import frappe.app

	from frappe_lite.testing import test_site

	try:
		if getattr(frappe.local, "db", None) is not None:
			frappe.db.rollback()
		frappe.destroy()
	finally:
		test_site.clear()
		frappe.app._sites_path = state["old_app_sites_path"]
		if state["old_env"] is None:
			os.environ.pop("HUF_SITES_PATH", None)
		else:
			os.environ["HUF_SITES_PATH"] = state["old_env"]
		if state["keep"]:
			print(f"\nfrappe_lite: test site kept in {state['sites_path']}")
		else:
			shutil.rmtree(state["sites_path"], ignore_errors=True)


@pytest.fixture(autouse=True)
def _frappe_rollback(request: pytest.FixtureRequest):
	"""Every test runs connected to the test site; what a plain test function writes is rolled back."""
	if not getattr(request.config, "_frappe_lite", None):
		yield
		return
	import unittest

	from frappe_lite.testing import TestTransaction, connect_test_site

	if isinstance(request.instance, unittest.TestCase):  # as under Frappe's runner: nothing between tests
		connect_test_site()
		yield
		return

	transaction = TestTransaction()
	transaction.begin()
	try:
		yield
	finally:
		transaction.end()


@pytest.fixture
def frappe_site(request: pytest.FixtureRequest):
	"""The test site: `site`, `sites_path` and `site_path`, for tests that serve it over HTTP."""
	import frappe

	if not getattr(request.config, "_frappe_lite", None):
		pytest.skip("no frappe_lite test site (set the frappe_apps ini option)")
	return frappe._dict(
		site=frappe.local.site, sites_path=frappe.local.sites_path, site_path=frappe.local.site_path
	)
