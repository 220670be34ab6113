"""Frappe Lite's own parts, which real Frappe does not have: the `huf` command and the pytest plugin.

The `frappe` package next to this one offers only Frappe's public API (names, signatures and
behaviour of real Frappe); whatever exists only to run that API without a bench lives here.
"""
