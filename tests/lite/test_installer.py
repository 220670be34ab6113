"""`huf new-site`, `install-app` and `migrate` on throw-away sites (Lite infrastructure)."""

from __future__ import annotations

import json
import os
import sys
import tempfile
import unittest
from pathlib import Path

import frappe
from frappe.tests import UnitTestCase
from frappe_lite.installer import new_site

from tests.lite._site_helpers import forget_app, make_app, on_site, remove, run_huf, write_doctype


class TestNewSite(UnitTestCase):
	@classmethod
	def setUpClass(cls):
		super().setUpClass()
		cls.sites_path = tempfile.mkdtemp(prefix="huf-installer-")
		cls.site_path = new_site("alpha.localhost", "alpha-pass", sites_path=cls.sites_path)

	@classmethod
	def tearDownClass(cls):
		remove(cls.sites_path)
		super().tearDownClass()

	def test_site_folders_and_config(self):
		site = Path(self.site_path)
		for folder in ("public/files", "private/files", "logs"):
			self.assertTrue((site / folder).is_dir(), folder)
		config = json.loads((site / "site_config.json").read_text())
		self.assertGreater(len(config["encryption_key"]), 30)
		self.assertTrue((site / "db.sqlite3").exists())

	def test_each_site_gets_its_own_encryption_key(self):
		other = new_site("beta.localhost", "x", sites_path=self.sites_path)
		key_a = json.loads((Path(self.site_path) / "site_config.json").read_text())["encryption_key"]
		key_b = json.loads((Path(other) / "site_config.json").read_text())["encryption_key"]
		self.assertNotEqual(key_a, key_b)

	def test_standard_roles_and_users(self):
		def read():
			return (
				set(frappe.get_all("Role", pluck="name")),
				{u.name: u for u in frappe.get_all("User", fields=["name", "user_type", "enabled"])},
				frappe.get_installed_apps(),
				frappe.get_roles("Guest"),
			)

		roles, users, apps, guest_roles = on_site("alpha.localhost", self.sites_path, read)
		self.assertTrue({"Administrator", "System Manager", "Guest", "All", "Desk User"} <= roles)
		self.assertEqual(set(users), {"Administrator", "Guest"})
		self.assertEqual(users["Administrator"].user_type, "System User")
		self.assertEqual(users["Guest"].user_type, "Website User")
		self.assertEqual(apps, ["frappe"])
		self.assertEqual(guest_roles, ["Guest"])

	def test_administrator_can_log_in_with_the_given_password(self):
		from frappe.utils.password import check_password

		self.assertEqual(
			on_site("alpha.localhost", self.sites_path, check_password, "Administrator", "alpha-pass"),
			"Administrator",
		)
		with self.assertRaises(frappe.AuthenticationError):
			on_site("alpha.localhost", self.sites_path, check_password, "Administrator", "wrong")

	def test_doctype_and_module_records_exist_for_links(self):
		def read():
			return frappe.get_all(
				"DocType",
				filters={"name": ("in", ["User", "ToDo", "Has Role"])},
				fields=["name", "module", "istable", "app"],
				order_by="name",
			)

		rows = on_site("alpha.localhost", self.sites_path, read)
		self.assertEqual(
			[(r.name, r.module, r.istable, r.app) for r in rows],
			[("Has Role", "Core", 1, "frappe"), ("ToDo", "Desk", 0, "frappe"), ("User", "Core", 0, "frappe")],
		)

	def test_existing_site_is_not_overwritten(self):
		with self.assertRaises(frappe.ValidationError):
			new_site("alpha.localhost", "other", sites_path=self.sites_path)

	def test_new_site_leaves_the_callers_context_alone(self):
		before = getattr(frappe.local, "site", None)
		new_site("gamma.localhost", "x", sites_path=self.sites_path)
		self.assertEqual(getattr(frappe.local, "site", None), before)

	def test_failed_install_leaves_no_half_made_site(self):
		root = tempfile.mkdtemp(prefix="huf-broken-app-")
		sites_path = tempfile.mkdtemp(prefix="huf-broken-sites-")
		app = make_app(Path(root), "huf_demo_broken_app")
		(app / "events.py").write_text("def after_install():\n\traise RuntimeError('boom')\n")
		sys.path.insert(0, root)
		try:
			with self.assertRaisesRegex(RuntimeError, "boom"):
				new_site("broken.localhost", "x", sites_path=sites_path, apps=["huf_demo_broken_app"])
			self.assertFalse(os.path.exists(os.path.join(sites_path, "broken.localhost")))
			(app / "events.py").write_text("def after_install():\n\tpass\n")
			forget_app("huf_demo_broken_app")
			new_site("broken.localhost", "x", sites_path=sites_path, apps=["huf_demo_broken_app"])
			apps = on_site("broken.localhost", sites_path, frappe.get_installed_apps)
			self.assertEqual(apps, ["frappe", "huf_demo_broken_app"])
		finally:
			sys.path.remove(root)
			forget_app("huf_demo_broken_app")
			remove(root)
			remove(sites_path)

	def test_invalid_site_name(self):
		with self.assertRaises(frappe.ValidationError):
			new_site("../evil", "x", sites_path=self.sites_path)


class TestInstallAppAndMigrate(UnitTestCase):
	"""A throw-away app installed with the CLI, then changed and migrated."""

	APP = "huf_demo_installer_app"

	def setUp(self):
		self.root = Path(tempfile.mkdtemp(prefix="huf-app-"))
		self.sites_path = tempfile.mkdtemp(prefix="huf-sites-")
		self.app = make_app(self.root, self.APP)
		sys.path.insert(0, str(self.root))
		run_huf(self.sites_path, "new-site", "demo.localhost", "--admin-password", "pw")
		self.addCleanup(self._cleanup)

	def _cleanup(self):
		sys.path.remove(str(self.root))
		forget_app(self.APP)
		remove(self.root)
		remove(self.sites_path)

	def huf(self, *args, check=True):
		return run_huf(
			self.sites_path, "--site", "demo.localhost", *args, extra_path=str(self.root), check=check
		)

	def read(self, fn):
		forget_app(self.APP)
		return on_site("demo.localhost", self.sites_path, fn)

	def test_install_app_then_migrate_twice_without_duplicates(self):
		self.huf("install-app", self.APP)
		self.huf("install-app", self.APP)  # a second install is a no-op
		self.huf("migrate")
		self.huf("migrate")

		def read():
			return frappe._dict(
				apps=frappe.get_installed_apps(),
				doctype_rows=frappe.db.count("DocType", {"name": "Huf Demo Installer App Item"}),
				module_rows=frappe.get_all(
					"Module Def", filters={"name": "Demo"}, fields=["name", "app_name"]
				),
				user_rows=frappe.db.count("DocType", {"name": "User"}),
				roles=frappe.db.count("Role"),
				after_install=frappe.db.get_global("demo_after_install"),
				after_migrate=frappe.db.get_global("demo_after_migrate"),
			)

		out = self.read(read)
		self.assertEqual(out.apps, ["frappe", self.APP])
		self.assertEqual(out.doctype_rows, 1)
		self.assertEqual(out.user_rows, 1)
		self.assertEqual(out.module_rows, [{"name": "Demo", "app_name": self.APP}])
		self.assertEqual(out.roles, 5)
		self.assertEqual(out.after_install, "1")
		self.assertEqual(out.after_migrate, "2")
		apps_txt = (Path(self.sites_path) / "apps.txt").read_text().split()
		self.assertEqual(apps_txt.count(self.APP), 1)
		self.assertIn(self.APP, self.huf("list-apps").stdout.split())

	def test_migrate_adds_a_column_without_losing_rows(self):
		self.huf("install-app", self.APP)

		def insert_rows():
			for title in ("one", "two", "three"):
				frappe.get_doc({"doctype": "Huf Demo Installer App Item", "title": title}).insert()

		self.read(insert_rows)
		write_doctype(
			self.app,
			self.APP,
			[
				{"fieldname": "title", "fieldtype": "Data", "label": "Title", "reqd": 1},
				{"fieldname": "score", "fieldtype": "Int", "label": "Score", "default": "7"},
				{"fieldname": "notes", "fieldtype": "Small Text", "label": "Notes"},
			],
		)
		self.huf("migrate")

		def read():
			rows = frappe.get_all(
				"Huf Demo Installer App Item", fields=["title", "score", "notes"], order_by="title"
			)
			doc = frappe.get_doc(
				{"doctype": "Huf Demo Installer App Item", "title": "four", "notes": "new"}
			).insert()
			return rows, frappe.db.get_value(
				"Huf Demo Installer App Item", doc.name, ["score", "notes"], as_dict=True
			)

		rows, new_row = self.read(read)
		self.assertEqual([r.title for r in rows], ["one", "three", "two"])
		self.assertTrue(all(r.score == 0 and r.notes is None for r in rows))
		self.assertEqual(new_row, {"score": 7, "notes": "new"})

	def test_new_patch_runs_once_on_migrate_and_install_marks_old_ones_done(self):
		(self.app / "patches.txt").write_text(f"[post_model_sync]\n{self.APP}.patches.count_patch\n")
		self.huf("install-app", self.APP)
		self.huf("migrate")
		self.assertIsNone(self.read(lambda: frappe.db.get_global("demo_patch")))

		(self.app / "patches.txt").write_text(
			f"[post_model_sync]\n{self.APP}.patches.count_patch\n{self.APP}.patches.count_patch #2026-12-03\n"
		)
		self.huf("migrate")
		self.huf("migrate")

		def read():
			return frappe.db.get_global("demo_patch"), frappe.get_all(
				"Patch Log", filters={"patch": ("like", f"{self.APP}%")}, pluck="patch"
			)

		count, logged = self.read(read)
		self.assertEqual(count, "1")
		self.assertEqual(
			sorted(logged), [f"{self.APP}.patches.count_patch", f"{self.APP}.patches.count_patch #2026-12-03"]
		)

	def test_install_app_that_is_not_importable(self):
		result = self.huf("install-app", "no_such_app_anywhere", check=False)
		self.assertEqual(result.returncode, 1)
		self.assertIn("no_such_app_anywhere", result.stderr)
		self.assertNotIn("Traceback", result.stderr)
		self.assertNotIn(
			"no_such_app_anywhere",
			(Path(self.sites_path) / "apps.txt").read_text()
			if os.path.exists(Path(self.sites_path) / "apps.txt")
			else "",
		)


if __name__ == "__main__":
	unittest.main()
