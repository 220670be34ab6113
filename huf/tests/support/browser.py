"""Driving Debian's Chromium from a test: a node script (playwright-core) that reports what it saw."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]  # the checkout: huf/, frontend/
FRONTEND = ROOT / "frontend"
CHROMIUM = os.environ.get("HUF_CHROMIUM", "/usr/bin/chromium")


def browser_missing() -> str | None:
	"""Why a browser test cannot run here (None when it can): node, chromium, playwright-core, the dashboard."""
	if not shutil.which("node"):
		return "node is not installed"
	if not os.path.exists(CHROMIUM):
		return f"chromium not found at {CHROMIUM}"
	if not any((folder / "node_modules" / "playwright-core").is_dir() for folder in (ROOT, FRONTEND)):
		return "frontend dependencies missing (npm ci)"
	if not (ROOT / "huf" / "public" / "frontend" / "index.html").is_file():
		return "the dashboard is not built (npm run build)"
	return None


def run_script(script: Path, config: dict, out_dir: str, timeout: int = 240) -> tuple:
	"""Run `script` with HUF_E2E_CONFIG = `config` (+ chromium, out_dir); returns (process, result.json)."""
	config = {"chromium": CHROMIUM, "out_dir": out_dir, **config}
	proc = subprocess.run(
		["node", str(script)],
		env={**os.environ, "HUF_E2E_CONFIG": json.dumps(config)},
		capture_output=True,
		text=True,
		timeout=timeout,  # under the run's per-test watchdog (HUF_TEST_TIMEOUT, 300 s)
	)
	result_file = Path(out_dir) / "result.json"
	return proc, json.loads(result_file.read_text()) if result_file.exists() else {}
