"""Frappe's types: `DF` (the Python type of each DocField type) and `exporter` (the typed block of
DocType controllers), as in Frappe 16."""
