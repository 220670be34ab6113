"""A stdio MCP server for the tests, built with the `mcp` SDK: it reports its own process.

Run as a script (`python stdio_env_server.py`); tools: `environment` (its environment variables, working
directory and pid as JSON) and `sleep`. Standalone: it imports only the SDK (`MCPServer` in mcp 2.x,
`FastMCP` in 1.x). No `from __future__ import annotations`: FastMCP reads annotations as classes.
"""

import json
import os
import time
from importlib.metadata import version


def server():
	if int(version("mcp").split(".")[0]) >= 2:
		from mcp.server.mcpserver import MCPServer as Server
	else:
		from mcp.server.fastmcp import FastMCP as Server
	app = Server("env-echo", log_level="CRITICAL")

	def environment() -> str:
		"""This server's environment variables, working directory and pid."""
		return json.dumps({"env": dict(os.environ), "cwd": os.getcwd(), "pid": os.getpid()})

	def sleep(seconds: float) -> str:
		"""Sleep, then answer."""
		time.sleep(seconds)
		return "woke up"

	app.add_tool(environment)
	app.add_tool(sleep)
	return app


if __name__ == "__main__":
	server().run()
