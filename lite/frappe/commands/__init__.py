"""What apps' commands use from Frappe's command module: `pass_context` and `get_site` (Frappe's own
commands are not here; Frappe Lite's `huf` command has its own, see `frappe_lite.commands`)."""

from functools import wraps

import click

import frappe


def pass_context(f):
	"""As Frappe: call `f(context, ...)` with the CLI context (sites, force, profile, verbose)."""

	@wraps(f)
	def _func(ctx, *args, **kwargs):
		try:
			return f(ctx.obj, *args, **kwargs)
		except (
			frappe.exceptions.SiteNotSpecifiedError,
			frappe.exceptions.IncorrectSitePath,
			frappe.exceptions.CommandFailedError,
		) as e:
			raise click.UsageError(e, ctx) from e

	return click.pass_context(_func)


def get_site(context, raise_err=True):
	"""The first site of the context; SiteNotSpecifiedError (or None) without one."""
	try:
		return context.sites[0]
	except (IndexError, TypeError):
		if raise_err:
			raise frappe.SiteNotSpecifiedError from None
		return None
