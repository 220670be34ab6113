"""Outbound HTTP, safe against SSRF (`safe_client.safe_request`): every request agents or knowledge make.

The bottom layer with `huf.ai.providers`: imports only Frappe.
"""
