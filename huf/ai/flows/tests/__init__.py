"""Tests of flows: the engine, each node type, the API, triggers and approvals."""
