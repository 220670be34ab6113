"""A background worker that runs jobs in its own process, for the Frappe 15 test bench (tools/real_bench.sh).

Frappe 16 has one (`FRAPPE_BACKGROUND_WORKERS_NOFORK=1 bench worker-pool`); Frappe 15's workers fork a
new process for every job, so every Huf job imports LiteLLM again (about 5 s on a small machine) and a
test that waits for a run waits for that. This is RQ's SimpleWorker on the queues `bench worker` listens
to, as Frappe 16's no-fork worker is. Run it from the bench's `sites` folder with the bench's Python.
"""

from __future__ import annotations

import frappe
from frappe.utils.background_jobs import get_queue_list, get_redis_conn
from rq import SimpleWorker


class JobByJobWorker(SimpleWorker):
	"""Leaves no Frappe context behind a job, as a forked job's exit does.

	Frappe 15's `execute_job` calls `frappe.destroy()` only for errors inside its `try`: a job that fails
	before it (e.g. `get_attr` while a test rewrites site_config.json, read half-written) leaves
	`frappe.local` initialised with that config, and every later `frappe.init` of this process keeps it.
	"""

	def perform_job(self, job, queue) -> bool:
		try:
			return super().perform_job(job, queue)
		finally:
			if getattr(frappe.local, "initialised", None):
				frappe.destroy()


def main() -> None:
	with frappe.init_site():  # no site: reads redis_queue from common_site_config.json
		connection = get_redis_conn()
		queues = get_queue_list(None, build_queue_name=True)
	JobByJobWorker(queues, connection=connection).work(logging_level="INFO", date_format="%H:%M:%S")


if __name__ == "__main__":
	main()
