"""Apps' commands as bench finds them: the click commands listed in `commands` of each app's `<app>.commands`
module, grouped under `--site` like `bench --site S <command>` (Frappe's semantics)."""

import importlib
import os
import traceback
from dataclasses import dataclass

import click

import frappe


@dataclass
class CliCtxObj:
	sites: list[str]
	force: bool
	profile: bool
	verbose: bool


@click.option("--site")
@click.option("--profile", is_flag=True, default=False, help="Profile")
@click.option("--verbose", is_flag=True, default=False, help="Verbose")
@click.option("--force", is_flag=True, default=False, help="Force")
@click.pass_context
def app_group(ctx, site=False, force=False, verbose=False, profile=False):
	ctx.obj = CliCtxObj(sites=get_sites(site), force=force, verbose=verbose, profile=profile)
	if ctx.info_name == "frappe":
		ctx.info_name = ""


def get_sites(site_arg: str) -> list[str]:
	"""--site ("all": every site), else $FRAPPE_SITE, else the default_site of common_site_config.json."""
	if site_arg == "all":
		return frappe.utils.get_sites()
	elif site_arg:
		return [site_arg]
	elif env_site := os.environ.get("FRAPPE_SITE"):
		return [env_site]
	elif default_site := frappe.get_conf().default_site:
		return [default_site]
	return []


def get_app_commands(app: str) -> dict:
	"""The app's click commands by name ({} when it has no `commands` module)."""
	ret = {}
	try:
		app_command_module = importlib.import_module(f"{app}.commands")
	except ModuleNotFoundError as e:
		if e.name == f"{app}.commands":
			return ret
		traceback.print_exc()
		return ret
	except Exception:
		traceback.print_exc()
		return ret
	for command in getattr(app_command_module, "commands", []):
		ret[command.name] = command
	return ret


def get_app_groups() -> dict[str, click.Group | click.Command]:
	"""Every app's commands in the one group "frappe", as bench runs them."""
	commands = {}
	for app in get_apps():
		if app_commands := get_app_commands(app):
			commands |= app_commands
	return dict(frappe=click.group(name="frappe", commands=commands)(app_group))


def get_apps():
	return frappe.get_all_apps(with_internal_apps=False, sites_path=".")


def main():
	"""`python -m frappe.utils.bench_helper frappe --site S <command>`, as bench calls it."""
	click.Group(commands=get_app_groups())(prog_name="bench")


if __name__ == "__main__":
	main()
