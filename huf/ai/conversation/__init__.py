"""The conversation layer: history, context policies, tool-call pairing and repair, strategies, memory."""
