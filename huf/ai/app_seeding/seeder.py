"""Seed the prompts, tools, knowledge sources, agents and triggers installed apps ship (docs/seeding.md).

Runs after every migrate, when an app is installed (`huf.install.after_app_install`) and on demand
(`seed_all_apps`). Kinds go in dependency order; each seed is applied in its own savepoint, so a seed
that fails is reported with its app, file and key and the others still land.
"""

from pathlib import Path

import frappe
from frappe.utils import strip_html

from huf.ai.app_seeding.kinds import KINDS
from huf.ai.app_seeding.records import CREATED, UNCHANGED, UPDATED, seed_key, upsert
from huf.ai.app_seeding.scanner import find_seed_dir, find_seed_dirs, read_seed_files
from huf.huf.capabilities import check_capability
from huf.huf.session_user import acting_as

OUTCOMES = (CREATED, UPDATED, UNCHANGED)
SAVEPOINT = "huf_app_seed"


def new_report() -> dict:
	"""{created, updated, unchanged, errors: [{app, file, key, error}], kinds: {prompts: {...}, ...}, apps}."""
	return {
		**dict.fromkeys(OUTCOMES, 0),
		"errors": [],
		"kinds": {kind.folder: {**dict.fromkeys(OUTCOMES, 0), "errors": 0} for kind in KINDS},
		"apps": [],
	}


def seed_app(app: str, seed_dir: str | Path | None = None, report: dict | None = None) -> dict:
	"""Seed one app from its seed folder (or from `seed_dir`, a folder laid out the same way)."""
	report = report if report is not None else new_report()
	seed_dir = Path(seed_dir) if seed_dir else find_seed_dir(app)
	if not seed_dir:
		return report
	report["apps"].append(app)
	for kind in KINDS:
		for label, seeds, error in read_seed_files(seed_dir, kind.folder):
			if error:
				_error(report, kind, app, label, None, error)
				continue
			for index, seed in enumerate(seeds):
				key = seed_key(kind, seed) or f"#{index + 1}"
				frappe.db.savepoint(SAVEPOINT)
				try:
					outcome = upsert(kind, seed, app)
				except Exception as exc:
					frappe.db.rollback(save_point=SAVEPOINT)
					frappe.clear_messages()
					_error(report, kind, app, label, key, strip_html(str(exc)) or type(exc).__name__)
					continue
				frappe.db.release_savepoint(SAVEPOINT)
				report[outcome] += 1
				report["kinds"][kind.folder][outcome] += 1
	return report


def seed_apps(apps: list[str] | None = None) -> dict:
	"""Seed every installed app that ships seeds (or only `apps`), in install order."""
	report = new_report()
	for app, seed_dir in find_seed_dirs(apps).items():
		seed_app(app, seed_dir, report)
	return report


def _error(report: dict, kind, app: str, file: str, key: str | None, error: str) -> None:
	report["errors"].append({"app": app, "file": file, "key": key, "error": error})
	report["kinds"][kind.folder]["errors"] += 1


def log_errors(report: dict, title: str) -> None:
	"""Seeds that failed during a hook: printed for the bench admin and kept in the Error Log."""
	if not report["errors"]:
		return
	lines = [f"{e['app']}: {e['file']} [{e['key'] or '-'}]: {e['error']}" for e in report["errors"]]
	print(f"Huf: {len(lines)} app seed(s) failed:\n  " + "\n  ".join(lines))
	frappe.log_error(title=title, message="\n".join(lines))


@frappe.whitelist(methods=["POST"])
def seed_all_apps() -> dict:
	"""Seed from every installed app now (System Managers and holders of system.settings.manage).

	Seeds are the installed apps' code, applied as a migrate applies them: as Administrator.
	"""
	check_capability("system.settings.manage")
	with acting_as("Administrator"):
		return seed_apps()
