import frappe

from huf.ai.integrations.client import service_client
from huf.api.integrations import list_integrations
from huf.tests.support.factories import make_user
from huf.tests.support.service_tools import ServiceToolTestCase

SECRET = "xoxb-settings-secret-42"


class TestIntegrationSettingsAccess(ServiceToolTestCase):
	SERVICE = "slack"
	CREDENTIALS = {"bot_token": SECRET}

	def make_user(self, *roles: str) -> str:
		return make_user(f"int-{frappe.generate_hash(length=8).lower()}@example.com", *roles)

	def make_role(self) -> str:
		name = f"Int Role {frappe.generate_hash(length=6)}"
		frappe.get_doc({"doctype": "Role", "role_name": name, "desk_access": 1}).insert(
			ignore_permissions=True
		)
		return name

	def test_tools_users_use_settings_without_roles_others_may_not(self):
		user, viewer = self.make_user("Huf User"), self.make_user("Huf Viewer")
		self.assertEqual(service_client("slack", user=user).settings_name, self.settings)
		with self.assertRaisesRegex(frappe.PermissionError, "may not use any slack settings"):
			service_client("slack", user=viewer)

	def test_allowed_roles_limit_who_may_use_the_settings(self):
		role = self.make_role()
		doc = frappe.get_doc("Integration Settings", self.settings)
		doc.append("allowed_roles", {"role": role})
		doc.save()
		outsider, member = self.make_user("Huf User"), self.make_user("Huf User", role)
		with self.assertRaises(frappe.PermissionError):
			service_client("slack", settings=self.settings, user=outsider)
		self.assertEqual(service_client("slack", user=member).settings_name, self.settings)
		self.assertEqual(service_client("slack", user="Administrator").settings_name, self.settings)
		# another active settings record without roles is what the outsider gets
		open_settings = self.make_settings(is_default=0)
		self.assertEqual(service_client("slack", user=outsider).settings_name, open_settings)

	def test_default_settings_first_and_one_default_per_service(self):
		second = self.make_settings(is_default=1)
		self.assertEqual(frappe.db.get_value("Integration Settings", self.settings, "is_default"), 0)
		self.assertEqual(service_client("slack").settings_name, second)
		with self.assertRaisesRegex(frappe.ValidationError, "no slack settings named"):
			service_client("slack", settings="github-0001")

	def test_channel_user_is_never_administrator(self):
		with self.assertRaisesRegex(frappe.ValidationError, "Channel User cannot be Administrator"):
			self.make_settings(channel_user="Administrator")

	def test_dashboard_list_names_credentials_but_never_values(self):
		self.make_settings(is_default=0, credentials=[], is_active=0)
		services = {s["service"]: s for s in list_integrations()}
		self.assertIn("telegram", services)
		slack = services["slack"]
		self.assertEqual((slack["auth_type"], slack["is_builtin"]), ("Bearer Token", 1))
		mine = {s["name"]: s for s in slack["settings"]}
		self.assertEqual(mine[self.settings]["credential_keys"], ["bot_token"])
		self.assertEqual(mine[self.settings]["missing_credentials"], [])
		self.assertTrue(mine[self.settings]["channel_urls"]["slack_events"].startswith("http"))
		self.assertEqual(mine[self.settings]["last_connection_status"], "")
		# each service names the fields it uses: GitHub no recipients nor channel, Slack both
		self.assertIn("recipients", slack["settings_fields"])
		self.assertIn("webhook_secret", slack["settings_fields"])
		self.assertEqual(
			services["github"]["settings_fields"],
			["label", "is_active", "is_default", "base_url", "credentials", "allowed_roles"],
		)
		self.assertEqual(services["raven"]["settings_fields"][-1], "recipients")
		self.assertIn(["bot_token"], [s["missing_credentials"] for s in slack["settings"]])
		self.assert_no_secret(services)
		frappe.set_user(self.make_user("Huf User"))
		with self.assertRaises(frappe.PermissionError):
			list_integrations()
