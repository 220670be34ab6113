"""Huf's commands for `bench --site S ...` (Frappe's app `commands` hook) and Frappe Lite's `huf --site S ...`.

- `prompt-log tail [-n N]`: the last N entries of the site's prompt log (JSON lines, oldest first)
- `prompt-log grep PATTERN [-i]`: the entries matching a regular expression (exit code 1 when none does)
"""

import click
from frappe.commands import get_site, pass_context


@click.group("prompt-log")
def prompt_log():
	"""The site's LLM prompt log (site config huf_log_prompts; see docs/observability.md)."""


@prompt_log.command("tail")
@click.option("-n", "--lines", "count", type=int, default=20, show_default=True, help="entries to show")
@pass_context
def tail(context, count: int):
	"""Print the last entries of the prompt log."""
	for line in _read(context, lambda log: log.tail(count)):
		click.echo(line)


@prompt_log.command("grep")
@click.argument("pattern")
@click.option("-i", "--ignore-case", is_flag=True, default=False, help="match regardless of case")
@pass_context
def grep(context, pattern: str, ignore_case: bool):
	"""Print the entries matching the regular expression PATTERN."""
	import re

	try:
		re.compile(pattern)
	except re.error as e:
		raise click.BadParameter(f"not a regular expression: {e}", param_hint="PATTERN") from e
	found = _read(context, lambda log: log.grep(pattern, ignore_case))
	for line in found:
		click.echo(line)
	if not found:
		raise click.exceptions.Exit(1)


def _read(context, read) -> list[str]:
	"""Run `read(prompt_log)` for the context's site (its logs folder; no database needed)."""
	import frappe

	from huf.ai.observability import prompt_log as log

	site = get_site(context)
	frappe.init(site)
	try:
		return read(log)
	finally:
		frappe.destroy()


commands = [prompt_log]
