#!/usr/bin/env bash
# Desk assets on the real bench built by tools/real_bench.sh: Frappe's JS/CSS bundles in sites/assets, so
# /app (Desk) works in a browser. Skipped while nothing changed (a stamp of Frappe's source, Node, yarn,
# Huf's bundle sources and this script, kept in $B/.assets-stamp).
#
#   tools/real_bench.sh assets          build the assets when needed
#   tools/real_bench.sh assets --force  build them again
#
# Needs Node 18+ (20 in CI) and network access to the npm registry. yarn is installed under
# $HUF_REAL_BENCH/node-tools when it is not on PATH. Frappe's yarn.lock (the bench's copy, not this repo)
# is changed to take frappe-charts 2.0.0-rc27, as 2.0.0-rc26 is gone from the registry; the git dependency
# air-datepicker resolves to $FRAPPE_SHARED_DIR/air-datepicker.bundle through GIT_CONFIG_* variables.
# `bench build --apps frappe` builds locally (about 2.5 minutes) without first trying to download
# prebuilt assets from GitHub, and links every app's public folder (Huf's too). Huf has no Desk bundles, and
# its dashboard is built in the checkout (`make frontend`): leaving it out keeps two benches building at once
# from rewriting the dashboard under each other's browser tests. Log: $HUF_REAL_BENCH/logs/assets.log.
set -euo pipefail
# Run through `tools/real_bench.sh assets`, which sets the bench's paths (B, BENCH, LOGS, ROOT, HERE)
# and the GIT_CONFIG_* variables that resolve air-datepicker to its bundle.
: "${B:?run this through tools/real_bench.sh assets}"
TOOLS="$ROOT/node-tools"
CHARTS_KEY='frappe-charts@^2.0.0-rc26:'
CHARTS_ENTRY='  version "2.0.0-rc27"
  resolved "https://registry.yarnpkg.com/frappe-charts/-/frappe-charts-2.0.0-rc27.tgz"
  integrity sha512-J4WCrHYB6oR4Dfu28aaCxlUu64C/V+qJlNE1E0xpya2/yCeqDZ8LA6pS63SBMOdV2CTP8cJ6Isk5m+rZi9gElA=='
export PATH="$TOOLS/bin:$PATH"

say() { echo "[real-bench-assets $(date +%H:%M:%S)] $*"; }

need_node() {
	command -v node >/dev/null || { echo "Desk assets need Node 18+ (20 in CI): node is not installed" >&2; return 1; }
	local major; major=$(node -p 'process.versions.node.split(".")[0]')
	[ "$major" -ge 18 ] || { echo "Desk assets need Node 18+, found $(node --version)" >&2; return 1; }
	command -v yarn >/dev/null || npm install --prefix "$TOOLS" --global --no-fund --no-audit yarn@1 >"$LOGS/yarn-install.log" 2>&1 \
		|| { tail -20 "$LOGS/yarn-install.log" >&2; return 1; }
}

# Everything the built assets depend on: Frappe's source (its stamp from real_bench.sh), Node, yarn,
# the bundle sources of Huf's public folder (not the React build) and this script.
assets_stamp() {
	{
		cat "$B/.frappe-stamp"
		node --version
		yarn --version
		find "$HERE/huf/public" -path "$HERE/huf/public/frontend" -prune -o -type f -name "*.bundle.*" -print0 \
			| sort -z | xargs -0 -r cat
		cat "$0"
	} | sha256sum | cut -c1-16
}

# Two lock entries of the bench's copy of Frappe cannot be fetched here, and are rewritten:
# - v16: frappe-charts 2.0.0-rc26 (the lock's pin) is gone from the npm registry: take 2.0.0-rc27, which
#   the package.json range ^2.0.0-rc26 allows (v15 pins 2.0.0-rc22, still there);
# - v15: air-datepicker is `github:frappe/air-datepicker`, which yarn fetches from codeload.github.com
#   (git's insteadOf cannot redirect that): written as v16 writes it, git+https://github.com/... at the
#   same commit, which resolves to air-datepicker.bundle.
patch_frappe_lock() {
	CHARTS_KEY="$CHARTS_KEY" CHARTS_ENTRY="$CHARTS_ENTRY" python3 - "$B/apps/frappe" <<'PY'
import os, re, sys

root, key, entry = sys.argv[1], os.environ["CHARTS_KEY"], os.environ["CHARTS_ENTRY"]
lock_path, package_path = f"{root}/yarn.lock", f"{root}/package.json"
lock, package = open(lock_path).read(), open(package_path).read()
block = re.compile(r"^" + re.escape(key) + r"\n(?:  .*\n)+", re.M)
lock = block.sub(lambda m: f"{key}\n{entry}\n", lock, count=1)
git_url = "git+https://github.com/frappe/air-datepicker"
package = package.replace('"github:frappe/air-datepicker"', f'"{git_url}"')
lock = lock.replace('"air-datepicker@github:frappe/air-datepicker":', f'"air-datepicker@{git_url}":')
lock = re.sub(
	r'resolved "https://codeload\.github\.com/frappe/air-datepicker/tar\.gz/([0-9a-f]+)"',
	lambda m: f'resolved "{git_url}#{m.group(1)}"',
	lock,
)
if "codeload.github.com" in lock or "frappe-charts-2.0.0-rc26" in lock:
	sys.exit(f"{lock_path} still names a package this machine cannot fetch")
open(lock_path, "w").write(lock)
open(package_path, "w").write(package)
PY
}

build_assets() {
	[ -f "$B/.frappe-stamp" ] || { echo "no bench at $B: run tools/real_bench.sh build first" >&2; return 1; }
	mkdir -p "$LOGS"
	need_node
	local stamp; stamp=$(assets_stamp)
	if [ "${1:-}" != "--force" ] && [ "$(cat "$B/.assets-stamp" 2>/dev/null)" = "$stamp" ] \
		&& [ -f "$B/sites/assets/assets.json" ] && [ -d "$B/sites/assets/frappe/dist" ]; then
		say "Desk assets are up to date"
		return 0
	fi
	rm -f "$B/.assets-stamp"
	patch_frappe_lock
	say "yarn install (Frappe's node modules)"
	(cd "$B/apps/frappe" && yarn install --frozen-lockfile --non-interactive --network-timeout 600000) \
		>"$LOGS/assets.log" 2>&1 || { tail -30 "$LOGS/assets.log" >&2; return 1; }
	say "bench build --apps frappe"
	(cd "$B" && "$BENCH" build --apps frappe) >>"$LOGS/assets.log" 2>&1 \
		|| { tr '\r' '\n' <"$LOGS/assets.log" | tail -30 >&2; return 1; }
	[ -f "$B/sites/assets/assets.json" ] || { echo "bench build wrote no sites/assets/assets.json" >&2; return 1; }
	echo "$stamp" >"$B/.assets-stamp"
	say "Desk assets built"
}

build_assets "$@"
