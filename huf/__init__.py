"""Huf: build and run AI agents on Frappe."""

__version__ = "0.12.0"
