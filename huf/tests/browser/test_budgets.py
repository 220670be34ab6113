"""The Budgets page in a real headless Chromium, against the real server.

Runs `budgets.e2e.mjs`: a Huf Manager opens Budgets from the navigation and sees each budget's spend
against its limit as a bar (a used-up one red, one with room green), axe-clean in light and dark; they
pause all runs after a confirmation (stored on Agent Settings as theirs), then resume them.
Screenshots go to $HUF_E2E_OUTPUT/budgets (default: <tmp>/huf-e2e/budgets).
"""

from __future__ import annotations

from pathlib import Path

import frappe

from huf.ai.runtime import budgets
from huf.tests.support.browser import BrowserTestCase

MANAGER = "e2e-budgets-manager@example.com"


def remove_records(suffix: str) -> None:
	"""The budgets of this run (and of interrupted earlier runs), the manager, an unticked switch; committed."""
	frappe.set_user("Administrator")
	frappe.db.rollback()
	frappe.db.delete("Huf Budget", {"budget_name": ("like", "E2E Budget %")})
	budgets.clear_guard()  # deleted without the controller
	budgets.set_paused(False)
	if frappe.db.exists("User", MANAGER):
		frappe.delete_doc("User", MANAGER, force=True, ignore_permissions=True)
	frappe.db.commit()


class TestBudgetsPageInBrowser(BrowserTestCase):
	script = Path(__file__).with_name("budgets.e2e.mjs")

	@classmethod
	def setUpClass(cls):
		super().setUpClass()
		cls.suffix = cls.own_records(remove_records)
		cls.user = cls.browser_user(MANAGER, "Huf Manager")
		for name, limit in ((f"E2E Budget Used {cls.suffix}", 0), (f"E2E Budget Room {cls.suffix}", 1000)):
			frappe.get_doc(
				{
					"doctype": "Huf Budget",
					"budget_name": name,
					"scope": "Site",
					"period": "Month",
					"limit_usd": limit,
				}
			).insert()
		cls.serve()

	def test_budgets_show_their_spend_and_the_kill_switch_pauses_and_resumes(self):
		result = self.run_browser(user=self.user, suffix=self.suffix)
		tones = {row["name"]: row["tone"] for row in result["budgets"]}
		self.assertEqual(tones[f"E2E Budget Used {self.suffix}"], "used-up")
		self.assertEqual(tones[f"E2E Budget Room {self.suffix}"], "ok")
		self.assertEqual(result["paused_after_confirm"], "1")
		self.assertIn(MANAGER, result["paused_text"])
		self.assertEqual(result["stored_while_paused"], {"paused": True, "paused_by": MANAGER})
		self.assertEqual(result["paused_after_resume"], "0")
		self.assertFalse(budgets.is_paused())
		axe = result["axe"]["01-budgets"]
		self.assertEqual((axe["light"], axe["dark"], axe["overflow"]), ([], [], 0))
