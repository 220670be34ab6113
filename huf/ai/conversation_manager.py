"""ConversationManager (the spec's module): conversations, their messages and the history sent to the model.

The implementation is `huf.ai.conversation.manager`; see docs/conversations.md.
"""

from huf.ai.conversation.manager import DENIED, ConversationManager
from huf.ai.conversation.pairing import safe_history_slice, safe_history_split
from huf.ai.conversation.repair import repair_message_sequence

__all__ = [
	"DENIED",
	"ConversationManager",
	"repair_message_sequence",
	"safe_history_slice",
	"safe_history_split",
]
