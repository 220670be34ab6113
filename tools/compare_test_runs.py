"""Compare Huf's test runs on Frappe Lite and on a real bench, test by test, and print the counts side by side.

Usage: python tools/compare_test_runs.py LITE_REPORT FRAPPE_REPORT
Each report is the JSON-lines file HUF_TEST_REPORT names while tests run (huf/tests/support/case.py).
Exit status 1 when the real bench had a failure or error, ran fewer tests than Lite, or did not run a
test Lite ran; skips on the real bench are listed with their reasons. The slowest modules and tests of
each run are printed too (where CI's time goes).
"""

from __future__ import annotations

import json
import sys
from collections import Counter, defaultdict


def load(path: str) -> dict[str, dict]:
	"""{test id: last record} of a report (a test retried by hand counts once)."""
	records: dict[str, dict] = {}
	try:
		with open(path) as f:
			for line in f:
				if line.strip():
					record = json.loads(line)
					records[record["id"]] = record
	except FileNotFoundError:
		print(f"no report at {path}")
	return records


def module_of(test_id: str) -> str:
	return test_id.rsplit(".", 2)[0]


def print_slowest(name: str, records: dict[str, dict], count: int = 12) -> None:
	"""The run's total time, and its slowest modules and tests (reports from before timings carry none)."""
	timed = {t: r["seconds"] for t, r in records.items() if "seconds" in r}
	if not timed:
		return
	per_module: Counter = Counter()
	for test_id, seconds in timed.items():
		per_module[module_of(test_id)] += seconds
	print(f"\n{name}: {sum(timed.values()):.0f} s in tests; slowest modules and tests:")
	for module, seconds in per_module.most_common(count):
		print(f"  {seconds:7.1f} s  {module}")
	for test_id, seconds in sorted(timed.items(), key=lambda item: -item[1])[:count]:
		print(f"  {seconds:7.1f} s  {test_id}")


def main(lite_path: str, frappe_path: str) -> int:
	lite, real = load(lite_path), load(frappe_path)
	per_module: dict[str, list[Counter]] = defaultdict(lambda: [Counter(), Counter()])
	for side, records in enumerate((lite, real)):
		for test_id, record in records.items():
			per_module[module_of(test_id)][side][record["outcome"]] += 1

	print(f"\n{'module':<62} {'Lite':>6} {'Frappe':>7}  (passed/total; s = skipped, F = failed)")
	for module in sorted(per_module):
		cells = []
		for counts in per_module[module]:
			total = sum(counts.values())
			extra = "".join(
				f" {counts[k]}{c}"
				for k, c in (("skipped", "s"), ("failed", "F"), ("error", "F"))
				if counts[k]
			)
			cells.append(f"{counts['passed']}/{total}{extra}")
		print(f"{module:<62} {cells[0]:>6} {cells[1]:>7}")
	totals = [Counter(r["outcome"] for r in records.values()) for records in (lite, real)]
	print(f"{'total':<62} {sum(totals[0].values()):>6} {sum(totals[1].values()):>7}")

	print_slowest("Lite", lite)
	print_slowest("Frappe", real)

	problems = []
	bad = sorted(t for t, r in real.items() if r["outcome"] in ("failed", "error"))
	if bad:
		problems.append(f"{len(bad)} failed on the real bench:\n  " + "\n  ".join(bad))
	missing = sorted(set(lite) - set(real))
	if missing:
		problems.append(f"{len(missing)} ran on Lite but not on the real bench:\n  " + "\n  ".join(missing))
	if len(real) < len(lite):
		problems.append(f"the real bench ran {len(real)} tests, Lite {len(lite)}")
	skipped = sorted((t, r["reason"]) for t, r in real.items() if r["outcome"] == "skipped")
	if skipped:
		print(f"\nskipped on the real bench ({len(skipped)}):")
		for test_id, reason in skipped:
			print(f"  {test_id}: {reason or 'NO REASON GIVEN'}")
		if any(not reason for _t, reason in skipped):
			problems.append("a skip on the real bench names no reason")
	for problem in problems:
		print(f"\nFAIL: {problem}")
	return 1 if problems else 0


if __name__ == "__main__":
	if len(sys.argv) != 3:
		sys.exit(__doc__)
	sys.exit(main(sys.argv[1], sys.argv[2]))
