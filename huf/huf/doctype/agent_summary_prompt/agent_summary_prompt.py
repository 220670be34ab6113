from huf.huf.prompt_versions import VersionedPrompt


class AgentSummaryPrompt(VersionedPrompt):
	pass
