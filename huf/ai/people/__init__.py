"""Huf users and Huf Roles as the dashboard manages them (huf.ai.permissions_api); the escalation rules
live in huf.huf.role_grants, the capabilities in huf.huf.capabilities."""
