from huf.huf.doctype.agent_prompt.test_agent_prompt import PromptVersioningTests
from huf.tests.support.case import HufTestCase


class TestAgentSummaryPrompt(PromptVersioningTests, HufTestCase):
	doctype = "Agent Summary Prompt"
