"""Conversations: their messages, the history sent to the model, context policies and strategies, memory.

| module | owns |
| --- | --- |
| `manager.py` | `ConversationManager`: find or start a conversation (ownership checked), add messages, history |
| `policies.py` | per-message context policies (include, summary only, exclude) and the history they build |
| `pairing.py` | slicing history at tool-call group boundaries (`safe_history_slice` / `_split`) |
| `repair.py` | `repair_message_sequence`: a valid OpenAI message sequence before every LLM call |
| `strategies.py` | None / FIFO / Summarize context strategies and the background summary job |
| `summarizer.py` | the summary call through the provider seam |
| `title.py` | conversation titles |
| `conversation_data.py` | conversation data (memory) and its injection into the system prompt |
| `usage.py` | atomic token and cost totals per conversation |

May import: `huf.ai.media`, `huf.ai.providers`, `huf.ai.http`, `huf.huf` rules. Never the runtime.
"""
