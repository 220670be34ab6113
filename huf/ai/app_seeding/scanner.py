"""Find the seed folders of installed apps and read their JSON files.

An app ships seeds in a `huf/` folder of its Python package (`apps/my_app/my_app/huf/`) or of its
root (`apps/my_app/huf/`), with one sub-folder per kind: prompts/, tools/, knowledge/, agents/,
triggers/. Each `.json` file holds one seed object or a list of them.
"""

import json
from pathlib import Path

import frappe
from frappe import _

from huf.ai.app_seeding.kinds import KINDS

SEED_FOLDER = "huf"
FOLDERS = tuple(kind.folder for kind in KINDS)


def find_seed_dir(app: str) -> Path | None:
	"""The seed folder of an installed app: a `huf/` folder holding at least one kind folder."""
	try:
		package = Path(frappe.get_app_path(app))
	except Exception:
		return None
	for candidate in (package / SEED_FOLDER, package.parent / SEED_FOLDER):
		if is_seed_dir(candidate):
			return candidate
	return None


def is_seed_dir(path: Path) -> bool:
	return path.is_dir() and any((path / folder).is_dir() for folder in FOLDERS)


def find_seed_dirs(apps: list[str] | None = None) -> dict[str, Path]:
	"""{app: seed folder} of the installed apps (or of `apps`) that ship seeds, in install order."""
	found = {}
	for app in apps or frappe.get_installed_apps():
		path = find_seed_dir(app)
		if path:
			found[app] = path
	return found


def read_seed_files(seed_dir: Path, folder: str) -> list[tuple[str, list | None, str | None]]:
	"""(file label, seeds, error) for each `.json` file of `seed_dir/folder`, by file name.

	The label is the path from the seed folder's parent (`huf/tools/lookup.json`); a file that is not
	valid JSON, or holds something else than an object or a list of objects, has seeds None and an error.
	"""
	directory = Path(seed_dir) / folder
	if not directory.is_dir():
		return []
	files = []
	for path in sorted(directory.glob("*.json")):
		label = f"{Path(seed_dir).name}/{folder}/{path.name}"
		try:
			data = json.loads(path.read_text(encoding="utf-8"))
		except (OSError, ValueError) as exc:
			files.append((label, None, _("not valid JSON: {0}").format(exc)))
			continue
		seeds = data if isinstance(data, list) else [data]
		if not all(isinstance(seed, dict) for seed in seeds):
			files.append((label, None, _("a seed file holds a JSON object or a list of objects")))
			continue
		files.append((label, seeds, None))
	return files
