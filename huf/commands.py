"""Huf's commands for `bench --site S ...` (Frappe's app `commands` hook) and Frappe Lite's `huf --site S ...`.

- `prompt-log tail [-n N]`: the last N entries of the site's prompt log (JSON lines, oldest first)
- `prompt-log grep PATTERN [-i]`: the entries matching a regular expression (exit code 1 when none does)
- `eval AGENT [--prompt-version V] [--model M] [--user U]`: run the agent's eval cases here, print each
  case's result; exit code 1 when a case did not pass (docs/evals.md)
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


@click.command("eval")
@click.argument("agent")
@click.option("--prompt-version", default=None, help="the Agent Prompt version to run the cases with")
@click.option("--model", default=None, help="another AI Model of the agent's provider")
@click.option("--user", default="Administrator", show_default=True, help="the user the cases run as")
@pass_context
def eval_agent(context, agent: str, prompt_version: str | None, model: str | None, user: str):
	"""Run AGENT's eval cases now; exit code 1 when any case fails."""
	import frappe

	from huf.ai.evals import cli

	frappe.init(get_site(context))
	frappe.connect()
	try:
		frappe.set_user(user)
		passed = cli.run_and_print(agent, prompt_version, model, click.echo)
	except (frappe.ValidationError, frappe.PermissionError) as e:
		raise click.ClickException(frappe.utils.strip_html(str(e))) from e
	finally:
		frappe.destroy()
	if not passed:
		raise click.exceptions.Exit(1)


commands = [prompt_log, eval_agent]
