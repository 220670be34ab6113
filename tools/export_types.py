"""Write the auto-generated types block of every Huf DocType controller (`make types`).

Usage: .venv/bin/python tools/export_types.py
Installs Huf on a throw-away Frappe Lite site, runs Frappe's exporter (`frappe.types.exporter`) on each
DocType's JSON (`huf.tests.support.controller_types.export`), then lets ruff sort the block's imports
(frappe, then huf) and format the controllers. On a bench: `bench --site SITE execute
huf.tests.support.controller_types.export` (or save the DocType in developer mode: Frappe writes the
block itself), then `ruff check --fix --select I huf/huf/doctype && ruff format huf/huf/doctype`.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SITE = "types.localhost"


def main() -> None:
	import frappe
	from frappe_lite.installer import new_site

	from huf.tests.support.controller_types import DOCTYPES, export

	with tempfile.TemporaryDirectory() as sites_path:
		with open(os.path.join(sites_path, "apps.txt"), "w") as f:
			f.write("huf\n")
		new_site(SITE, "admin", sites_path=sites_path, apps=["huf"])
		frappe.init(SITE, sites_path=sites_path)
		frappe.connect()
		try:
			written = export()
		finally:
			frappe.destroy()
	ruff = os.path.join(os.path.dirname(sys.executable), "ruff")
	subprocess.run([ruff, "check", "--fix", "--quiet", "--select", "I", str(DOCTYPES)], check=True, cwd=ROOT)
	subprocess.run([ruff, "format", "--quiet", str(DOCTYPES)], check=True, cwd=ROOT)
	print(f"types written for {len(written)} DocTypes")


if __name__ == "__main__":
	main()
