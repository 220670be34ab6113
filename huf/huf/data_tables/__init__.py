"""Huf Data Tables: user-designed tables stored as custom DocTypes named "HF <table>" (docs/data-tables.md)."""

DOCTYPE_PREFIX = "HF "
