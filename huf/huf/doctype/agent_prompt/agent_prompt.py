from huf.huf.prompt_versions import VersionedPrompt


class AgentPrompt(VersionedPrompt):
	pass
