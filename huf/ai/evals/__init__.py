"""Evals: an agent's test cases, run in the background (or from the command line) with their checks (docs/evals.md)."""
