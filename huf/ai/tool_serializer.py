"""Tools in the format every provider accepts (the spec's module `tool_serializer`): `serialize_tools`
turns tools into OpenAI function schemas ({"type": "function", "function": {"name", "description",
"parameters"}}). The implementation is `huf.ai.tools.serializer` (docs/tools.md).
"""

from huf.ai.tools.serializer import serialize_tool, serialize_tools

__all__ = ["serialize_tool", "serialize_tools"]
