#!/usr/bin/env bash
# make test-frappe: Huf's suite with Frappe's own runner on a real bench of each Frappe line named
# (tools/real_bench.sh test; default 16 15), all lines at once: each has its own bench, MariaDB, Redis and
# ports, and their runs spend most of their time waiting (on the database, the worker, the browser), so two
# lines take little longer than one. Each line's output is prefixed with its name. HUF_BENCH_SERIAL=1 runs
# the lines one after another. Exit status 1 when any line failed.
set -uo pipefail
cd "$(dirname "$0")/.."
[ $# -gt 0 ] || set -- 16 15

run_line() {
	FRAPPE="$1" HUF_REQUIRE_DESK=1 HUF_REQUIRE_BROWSER=1 tools/real_bench.sh test 2>&1 | sed -u "s/^/[frappe $1] /"
}

rc=0
pids=()
for line in "$@"; do
	if [ "${HUF_BENCH_SERIAL:-}" = 1 ]; then
		run_line "$line" || rc=1
	else
		run_line "$line" &
		pids+=("$!")
	fi
done
for pid in "${pids[@]}"; do wait "$pid" || rc=1; done
exit $rc
