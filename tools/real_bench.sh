#!/usr/bin/env bash
# Huf on a real Frappe bench: build one from ../shared/frappe (MariaDB, Redis, Frappe 16 or 15), install
# this checkout as the `huf` app, and run Huf's suite with Frappe's own runner on a fresh site.
#
#   FRAPPE=16 (default) builds from frappe.tar.gz (16.0.0-dev), FRAPPE=15 from frappe-15.tar.gz (15.44.2).
#   Each line has its own bench, MariaDB and redis-servers, so both can be kept and run side by side.
#
#   tools/real_bench.sh test      everything below, in order; exit status 1 on any failure (make test-frappe)
#   tools/real_bench.sh prepare   system, services, build and assets: what can run beside `make test` (.ci/run)
#   tools/real_bench.sh system    apt-get the system packages (as root; skipped when present)
#   tools/real_bench.sh services  start MariaDB (own data folder, no systemd) and two redis-servers
#   tools/real_bench.sh build     bench layout, venv, Frappe, the bench CLI, this checkout as apps/huf
#   tools/real_bench.sh site      a fresh site with huf installed and tests allowed
#   tools/real_bench.sh assets    Desk's JS/CSS in sites/assets (tools/real_bench_assets.sh; skipped while unchanged)
#   tools/real_bench.sh worker    (re)start the background worker (after changing code the worker runs) and
#                                 Frappe's socket.io server (the dashboard's live events)
#   tools/real_bench.sh run-tests [run-tests options]   run Frappe's runner on the site (default: --app huf)
#   tools/real_bench.sh stop      stop the worker, MariaDB and the redis-servers
#
# The build is kept in $HUF_REAL_BENCH (default ~/.cache/huf-bench; FRAPPE=15 appends -15) and reused
# while the Frappe tarball and Huf's pyproject.toml are unchanged; apps/huf is a symlink to this checkout,
# so code changes need no reinstall. Environment: FRAPPE, HUF_REAL_BENCH, FRAPPE_SHARED_DIR (default
# ../shared/frappe beside the checkout), SITE (default huf-test.localhost), MARIADB_PORT (3306),
# REDIS_CACHE_PORT (13000), REDIS_QUEUE_PORT (11000), SOCKETIO_PORT (9000) - FRAPPE=15 adds 10 to each port -,
# HUF_BENCH_TIMEOUT (whole test run, seconds, default 3000), HUF_TEST_TIMEOUT (one test, seconds,
# default 300). Results: .test-results/frappe-$FRAPPE.jsonl, compared with .test-results/lite.jsonl
# (written by `make test`) by tools/compare_test_runs.py.
set -euo pipefail
HERE="$(cd "$(dirname "$0")/.." && pwd)"
FRAPPE="${FRAPPE:-16}"
ROOT="${HUF_REAL_BENCH:-$HOME/.cache/huf-bench}"
SHARED="${FRAPPE_SHARED_DIR:-$HERE/../shared/frappe}"
SHARED="$(cd "$SHARED" && pwd)"
SITE="${SITE:-huf-test.localhost}"
DB_ROOT_PASSWORD="${DB_ROOT_PASSWORD:-root}"
MARIADB_PORT="${MARIADB_PORT:-3306}"
REDIS_CACHE_PORT="${REDIS_CACHE_PORT:-13000}"
REDIS_QUEUE_PORT="${REDIS_QUEUE_PORT:-11000}"
SOCKETIO_PORT="${SOCKETIO_PORT:-9000}"
case "$FRAPPE" in
	16) TARBALL="$SHARED/frappe.tar.gz" ;;
	15)
		TARBALL="$SHARED/frappe-15.tar.gz" ROOT="$ROOT-15"
		MARIADB_PORT=$((MARIADB_PORT + 10)) REDIS_CACHE_PORT=$((REDIS_CACHE_PORT + 10)) REDIS_QUEUE_PORT=$((REDIS_QUEUE_PORT + 10)) SOCKETIO_PORT=$((SOCKETIO_PORT + 10))
		;;
	*) echo "FRAPPE must be 15 or 16, not $FRAPPE" >&2; exit 2 ;;
esac
PYTHON="${PYTHON:-python3.11}"
command -v "$PYTHON" >/dev/null || PYTHON=python3

B="$ROOT/frappe-bench"
M="$ROOT/mariadb"
BENCH="$ROOT/bench-cli/bin/bench"
LOGS="$ROOT/logs"
OUT="${HUF_TEST_OUTPUT:-$HERE/.test-results}"
mkdir -p "$ROOT" "$LOGS" "$OUT"
export LITELLM_LOCAL_MODEL_COST_MAP=True DEBIAN_FRONTEND=noninteractive PATH="$B/env/bin:$PATH"

# Frappe pins PyPika and gunicorn as git+https://github.com/frappe/<repo>@<sha>: git resolves them to
# the bundles through the environment only (no global git config).
export GIT_CONFIG_COUNT=4
export GIT_CONFIG_KEY_0="url.$SHARED/pypika.bundle.insteadOf" GIT_CONFIG_VALUE_0=https://github.com/frappe/pypika
export GIT_CONFIG_KEY_1="url.$SHARED/gunicorn.bundle.insteadOf" GIT_CONFIG_VALUE_1=https://github.com/frappe/gunicorn
export GIT_CONFIG_KEY_2="url.$SHARED/air-datepicker.bundle.insteadOf" GIT_CONFIG_VALUE_2=https://github.com/frappe/air-datepicker
export GIT_CONFIG_KEY_3=init.defaultBranch GIT_CONFIG_VALUE_3=pinned

say() { echo "[real-bench $(date +%H:%M:%S)] $*"; }
timed() { local t0; t0=$(date +%s); "$@"; say "$1 took $(($(date +%s) - t0)) s"; }

system() {
	local need=()
	command -v mariadbd >/dev/null || need+=(mariadb-server)
	command -v redis-server >/dev/null || need+=(redis-server)
	[ -f /usr/include/mariadb/mysql.h ] || need+=(default-libmysqlclient-dev libmariadb-dev)
	command -v pkg-config >/dev/null || need+=(pkg-config)
	command -v git >/dev/null || need+=(git)
	[ ${#need[@]} = 0 ] && return
	[ "$(id -u)" = 0 ] || { echo "missing system packages: ${need[*]} (run as root)" >&2; return 1; }
	apt-get update -qq && apt-get install -y -qq "${need[@]}" build-essential >"$LOGS/apt.log" 2>&1
}

mysql_root() { mariadb --no-defaults -uroot -S "$M/mysqld.sock" "$@"; }
db_answers() { mariadb-admin --no-defaults -uroot -p"$DB_ROOT_PASSWORD" -h127.0.0.1 -P"$MARIADB_PORT" ping >/dev/null 2>&1; }

start_mariadb() {
	db_answers && return
	mkdir -p "$M"
	local fresh=0
	if [ ! -d "$M/data/mysql" ]; then
		mariadb-install-db --no-defaults --user="$(id -un)" --datadir="$M/data" \
			--auth-root-authentication-method=normal --skip-test-db >"$M/install-db.log" 2>&1
		fresh=1
	fi
	# throw-away test database: no fsync per commit
	nohup mariadbd --no-defaults --user="$(id -un)" --datadir="$M/data" --socket="$M/mysqld.sock" \
		--port="$MARIADB_PORT" --bind-address=127.0.0.1 --pid-file="$M/mariadbd.pid" \
		--log-error="$M/mariadbd.err" --character-set-server=utf8mb4 \
		--collation-server=utf8mb4_unicode_ci --innodb-flush-log-at-trx-commit=2 \
		>"$M/mariadbd.out" 2>&1 &
	for _ in $(seq 60); do mariadb-admin --no-defaults -uroot -S "$M/mysqld.sock" ping >/dev/null 2>&1 && break; sleep 1; done
	if [ "$fresh" = 1 ]; then # new-site needs a root password (an empty one makes it prompt)
		mysql_root -e "ALTER USER 'root'@'localhost' IDENTIFIED BY '$DB_ROOT_PASSWORD';
			ALTER USER 'root'@'127.0.0.1' IDENTIFIED BY '$DB_ROOT_PASSWORD';
			ALTER USER 'root'@'::1' IDENTIFIED BY '$DB_ROOT_PASSWORD'; FLUSH PRIVILEGES;"
	fi
	db_answers || { tail -20 "$M/mariadbd.err" >&2; return 1; }
}

start_redis() {
	mkdir -p "$B/config/pids" "$B/config/redis" "$B/logs"
	local p
	for p in "$REDIS_CACHE_PORT" "$REDIS_QUEUE_PORT"; do
		redis-cli -p "$p" ping >/dev/null 2>&1 && continue
		redis-server --port "$p" --bind 127.0.0.1 --daemonize yes --save "" --appendonly no \
			--dir "$B/config/redis" --pidfile "$B/config/pids/redis_$p.pid" --logfile "$B/logs/redis_$p.log"
	done
}

services() { start_mariadb; start_redis; }

stamp_of() { cat "$@" | sha256sum | cut -c1-16; }

# Frappe and its test tools: v16 has a [test] extra, v15 lists them under [tool.bench.dev-dependencies]
frappe_requirements() {
	if [ "$FRAPPE" = 16 ]; then FRAPPE_REQUIREMENTS=(-e "$B/apps/frappe[test]"); return; fi
	mapfile -t FRAPPE_REQUIREMENTS < <("$PYTHON" - "$B/apps/frappe/pyproject.toml" <<'PY'
import sys, tomllib
dev = tomllib.load(open(sys.argv[1], "rb"))["tool"]["bench"]["dev-dependencies"]
print("-e"); print(sys.argv[1].rsplit("/", 1)[0])
for name, spec in dev.items():
	print(name + spec)
PY
	)
}

build() {
	mkdir -p "$B"/{apps,sites,logs,config/pids}
	local frappe_stamp; frappe_stamp=$(stamp_of "$TARBALL")
	if [ "$(cat "$B/.frappe-stamp" 2>/dev/null)" != "$frappe_stamp" ]; then
		rm -rf "$B/apps/frappe" "$B/env"
		tar -xzf "$TARBALL" -C "$B/apps"
		frappe_requirements
		"$PYTHON" -m venv "$B/env"
		# setuptools<81: a Frappe dependency (google-api-python-client) still imports pkg_resources
		"$B/env/bin/pip" install -q --upgrade pip wheel "setuptools<81"
		"$B/env/bin/pip" install "${FRAPPE_REQUIREMENTS[@]}" >"$LOGS/pip-frappe.log" 2>&1 \
			|| { tail -30 "$LOGS/pip-frappe.log"; return 1; }
		echo "$frappe_stamp" >"$B/.frappe-stamp"
		rm -f "$B/.huf-stamp"
	fi
	[ -x "$BENCH" ] || { "$PYTHON" -m venv "$ROOT/bench-cli" && "$ROOT/bench-cli/bin/pip" install -q frappe-bench; }
	# apps/huf is this checkout: Frappe finds the app by its package path, tests see the working tree
	if [ "$(readlink "$B/apps/huf" 2>/dev/null)" != "$HERE" ]; then rm -rf "$B/apps/huf"; ln -s "$HERE" "$B/apps/huf"; rm -f "$B/.huf-stamp"; fi
	# the site serves /assets/huf from this checkout too (bench build links it to whichever checkout built it)
	if [ -d "$B/sites/assets" ] && [ "$(readlink "$B/sites/assets/huf" 2>/dev/null)" != "$HERE/huf/public" ]; then
		rm -rf "$B/sites/assets/huf"; ln -s "$HERE/huf/public" "$B/sites/assets/huf"
	fi
	local huf_stamp; huf_stamp=$(stamp_of "$HERE/pyproject.toml")
	if [ "$(cat "$B/.huf-stamp" 2>/dev/null)" != "$huf_stamp" ]; then
		frappe_requirements
		# Frappe and Huf resolved together, so Huf's requirements take versions inside Frappe's pins
		"$B/env/bin/pip" install "${FRAPPE_REQUIREMENTS[@]}" -e "$B/apps/huf[test]" >"$LOGS/pip-huf.log" 2>&1 \
			|| { tail -30 "$LOGS/pip-huf.log"; return 1; }
		"$B/env/bin/pip" install -q "setuptools<81"
		echo "$huf_stamp" >"$B/.huf-stamp"
	fi
	# lite_test_app (tests/lite/apps): a submittable DocType with a child table, which Frappe's core
	# lacks and some Huf tests need; a plain Frappe app, installed on the test site only
	ln -sfn "$HERE/tests/lite/apps" "$B/apps/lite_test_app"
	echo "$HERE/tests/lite/apps" >"$("$B/env/bin/python" -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])')/huf-test-apps.pth"
	printf 'frappe\nhuf\nlite_test_app\n' >"$B/sites/apps.txt"
	cat >"$B/sites/common_site_config.json" <<JSON
{
 "frappe_user": "$(id -un)",
 "db_host": "127.0.0.1",
 "db_port": $MARIADB_PORT,
 "redis_cache": "redis://127.0.0.1:$REDIS_CACHE_PORT",
 "redis_queue": "redis://127.0.0.1:$REDIS_QUEUE_PORT",
 "redis_socketio": "redis://127.0.0.1:$REDIS_CACHE_PORT",
 "socketio_port": $SOCKETIO_PORT,
 "webserver_port": 8000,
 "live_reload": false
}
JSON
	echo "-- pip check (Frappe's pins beside Huf's requirements):"
	"$B/env/bin/pip" check 2>&1 | grep -v "is ignored" || true
}

site() {
	cd "$B"
	# a site left by an earlier run goes whole: `new-site --force` would keep its site_config.json, and with
	# it whatever a killed test had set there (a stray bench_id sends every job to a queue no worker reads)
	if [ -d "sites/$SITE" ]; then
		"$BENCH" drop-site "$SITE" --force --no-backup --db-root-username root --db-root-password "$DB_ROOT_PASSWORD" \
			--archived-sites-path "$B/archived_sites" >"$LOGS/drop-site-$SITE.log" 2>&1 || rm -rf "sites/$SITE"
		rm -rf "$B/archived_sites"
	fi
	# Frappe caches the bench's app-module map in Redis across sites (v15 even before a site has the
	# app): a fresh site starts from an empty cache, or install-app misses Huf's DocTypes
	redis-cli -p "$REDIS_CACHE_PORT" flushall >/dev/null
	"$BENCH" new-site "$SITE" --db-type mariadb --db-root-username root \
		--db-root-password "$DB_ROOT_PASSWORD" --admin-password admin --install-app huf \
		>"$LOGS/new-site-$SITE.log" 2>&1 || { tr '\r' '\n' <"$LOGS/new-site-$SITE.log" | tail -30; return 1; }
	"$BENCH" --site "$SITE" clear-cache # the app-module map is cached in Redis across sites
	"$BENCH" --site "$SITE" install-app lite_test_app >>"$LOGS/new-site-$SITE.log" 2>&1 \
		|| { tail -20 "$LOGS/new-site-$SITE.log"; return 1; }
	"$BENCH" --site "$SITE" set-config allow_tests true >/dev/null
	# a System Manager besides Administrator, as every real site has from its setup wizard (Frappe 15
	# refuses to delete any user without one: "There should remain at least one System Manager")
	"$BENCH" --site "$SITE" add-system-manager site-manager@huf-bench.test --first-name Site >/dev/null
	"$BENCH" --site "$SITE" set-config admin_password admin >/dev/null
}

assets() { HERE="$HERE" ROOT="$ROOT" B="$B" BENCH="$BENCH" LOGS="$LOGS" "$HERE/tools/real_bench_assets.sh" "$@"; }

stop_worker() {
	stop_group "$B/config/pids/realtime.pid"
	stop_group "$B/config/pids/worker.pid"
}

stop_group() {
	local f="$1"
	[ -f "$f" ] || return 0
	local group; group=$(cat "$f")
	kill -- -"$group" 2>/dev/null || kill "$group" 2>/dev/null || true
	# a worker finishing a job (or a pool waiting for its workers) gets 10 s, then is killed
	for _ in $(seq 10); do pgrep -g "$group" >/dev/null || break; sleep 1; done
	pkill -9 -g "$group" 2>/dev/null || true
	rm -f "$f"
}

worker() {
	# Real Frappe runs queued jobs only in a worker. No-fork workers (Frappe's worker pool) import
	# LiteLLM once instead of once per job; restart them after changing code they run.
	stop_worker
	cd "$B"
	if [ "$FRAPPE" = 16 ]; then
		FRAPPE_BACKGROUND_WORKERS_NOFORK=1 setsid "$BENCH" worker-pool --num-workers "${HUF_BENCH_WORKERS:-2}" \
			>"$LOGS/worker.log" 2>&1 &
	else # Frappe 15 workers fork per job: RQ's SimpleWorker, as 16's no-fork worker (tools/nofork_worker.py)
		(cd sites && HUF_BENCH_WORKERS="${HUF_BENCH_WORKERS:-2}" exec setsid bash -c \
			'for _ in $(seq "$HUF_BENCH_WORKERS"); do "$0" "$1" & done; wait' "$B/env/bin/python" "$HERE/tools/nofork_worker.py" \
			>"$LOGS/worker.log" 2>&1) &
	fi
	echo $! >"$B/config/pids/worker.pid"
	realtime
}

realtime() {
	# Frappe's socket.io server, as `bench start` runs it: the dashboard's live events reach the browser
	# through it (the sockets of 127.0.0.1 belong to the test site). Its Node modules come with the assets.
	[ -d "$B/apps/frappe/node_modules/socket.io" ] || { say "no socket.io server: Frappe's Node modules are missing (tools/real_bench.sh assets)"; return 0; }
	(cd "$B" && FRAPPE_SITE="$SITE" FRAPPE_SOCKETIO_PORT="$SOCKETIO_PORT" exec setsid node apps/frappe/realtime/index.js >"$LOGS/realtime.log" 2>&1) &
	echo $! >"$B/config/pids/realtime.pid"
	for _ in $(seq 50); do (exec 3<>"/dev/tcp/127.0.0.1/$SOCKETIO_PORT") 2>/dev/null && return 0; sleep 0.2; done
	say "the socket.io server did not start:"; tail -20 "$LOGS/realtime.log" >&2
}

run_tests() {
	cd "$B"
	[ $# -gt 0 ] || set -- --app huf
	rm -f "$OUT/frappe-$FRAPPE.jsonl"
	HUF_TEST_REPORT="$OUT/frappe-$FRAPPE.jsonl" HUF_TEST_TIMEOUT="${HUF_TEST_TIMEOUT:-300}" timeout --kill-after=30 "${HUF_BENCH_TIMEOUT:-3000}" \
		"$BENCH" --site "$SITE" run-tests "$@"
}

test_all() {
	timed system
	timed services
	timed build
	timed site
	timed assets
	worker
	trap stop_worker EXIT
	local rc
	set +e
	timed run_tests --app huf 2>&1 | tee "$LOGS/run-tests.log"
	rc=${PIPESTATUS[0]}
	set -e
	[ "$rc" = 0 ] || { say "run-tests failed (exit $rc)"; rc=1; }
	"$B/env/bin/python" "$HERE/tools/compare_test_runs.py" "$OUT/lite.jsonl" "$OUT/frappe-$FRAPPE.jsonl" || rc=1
	return $rc
}

stop() {
	stop_worker
	local f pid
	for f in "$B/config/pids/redis_$REDIS_CACHE_PORT.pid" "$B/config/pids/redis_$REDIS_QUEUE_PORT.pid" "$M/mariadbd.pid"; do
		[ -f "$f" ] || continue
		pid=$(cat "$f"); kill "$pid" 2>/dev/null || true
		for _ in $(seq 30); do kill -0 "$pid" 2>/dev/null || break; sleep 1; done
		rm -f "$f"
	done
}

case "${1:-test}" in
	system) system ;;
	services) services ;;
	build) build ;;
	site) site ;;
	assets) shift; assets "$@" ;;
	worker) worker ;;
	run-tests) shift; run_tests "$@" ;;
	prepare) timed system; timed services; timed build; timed assets ;;
	test) test_all ;;
	stop) stop ;;
	*) echo "unknown step: $1" >&2; exit 2 ;;
esac
