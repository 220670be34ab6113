import frappe

from huf.api.agents import get_new_agent_defaults
from huf.tests.support.case import HufTestCase
from huf.tests.support.factories import make_model, make_user

MANAGER = "agent-defaults-manager@example.com"
HUF_USER = "agent-defaults-user@example.com"


def set_defaults(provider: str | None, model: str | None) -> None:
	frappe.db.set_single_value("Agent Settings", {"default_provider": provider, "default_model": model})


class TestNewAgentDefaults(HufTestCase):
	@classmethod
	def setUpClass(cls):
		super().setUpClass()
		make_user(MANAGER, "Huf Manager")
		make_user(HUF_USER, "Huf User")

	def only(self, *models: tuple[str, str]) -> None:
		"""Leave exactly these (model, provider) pairs on the site (rolled back after the test)."""
		frappe.db.delete("AI Model")
		frappe.db.delete("AI Provider")
		for model, provider in models:
			make_model(model, provider)

	def test_the_settings_defaults(self):
		make_model("default-model", "Default Provider")
		make_model("other-model", "Other Provider")
		set_defaults("Default Provider", "default-model")
		frappe.set_user(MANAGER)
		self.assertEqual(get_new_agent_defaults(), {"provider": "Default Provider", "model": "default-model"})

	def test_a_default_provider_with_its_only_model(self):
		make_model("only-model", "Lonely Provider")
		set_defaults("Lonely Provider", None)
		frappe.set_user(MANAGER)
		self.assertEqual(get_new_agent_defaults(), {"provider": "Lonely Provider", "model": "only-model"})

	def test_a_default_model_names_its_provider(self):
		make_model("picked-model", "Picked Provider")
		set_defaults(None, "picked-model")
		self.assertEqual(get_new_agent_defaults(), {"provider": "Picked Provider", "model": "picked-model"})

	def test_the_only_provider_and_model_without_settings(self):
		self.only(("sole-model", "Sole Provider"))
		set_defaults(None, None)
		frappe.set_user(MANAGER)
		self.assertEqual(get_new_agent_defaults(), {"provider": "Sole Provider", "model": "sole-model"})

	def test_nothing_to_choose_from_two(self):
		self.only(("a-model", "Provider A"), ("b-model", "Provider B"))
		set_defaults(None, None)
		self.assertEqual(get_new_agent_defaults(), {"provider": "", "model": ""})
		self.only(("a-model", "Provider A"), ("a2-model", "Provider A"))
		self.assertEqual(get_new_agent_defaults(), {"provider": "Provider A", "model": ""})

	def test_a_deleted_default_provider_is_not_offered(self):
		self.only(("a-model", "Provider A"), ("b-model", "Provider B"))
		frappe.db.set_single_value("Agent Settings", "default_provider", "Gone Provider")
		self.assertEqual(get_new_agent_defaults(), {"provider": "", "model": ""})

	def test_only_for_users_who_may_create_agents(self):
		frappe.set_user(HUF_USER)
		with self.assertRaises(frappe.PermissionError):
			get_new_agent_defaults()
