"""Tests of the MCP client; shared test support lives in `huf.tests.support`."""
