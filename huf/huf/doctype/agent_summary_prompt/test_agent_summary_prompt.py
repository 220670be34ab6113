from frappe.tests import IntegrationTestCase

from huf.huf.doctype.agent_prompt.test_agent_prompt import PromptVersioningTests


class TestAgentSummaryPrompt(PromptVersioningTests, IntegrationTestCase):
	doctype = "Agent Summary Prompt"
