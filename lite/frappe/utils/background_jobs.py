"""`frappe.enqueue`: background jobs on an in-process worker pool, or on RQ when `redis_queue` is set.

Jobs run as in Frappe: in their own context for the enqueuing site and user, committed when they
succeed, rolled back and recorded in Error Log when they fail. Job ids are namespaced per site.
"""

from __future__ import annotations

import ctypes
import hashlib
import os
import random
import re
import sys
import threading
import time
import traceback
import uuid
from collections import OrderedDict, defaultdict, deque
from collections.abc import Callable
from contextvars import ContextVar
from typing import Any

import frappe
from frappe import _
from frappe.utils import CallbackManager

_DEFAULT_QUEUES = ("default", "short", "long")
_DEFAULT_TIMEOUTS = {"default": 300, "short": 300, "long": 1500}
RQ_JOB_FAILURE_TTL = 7 * 24 * 60 * 60
RQ_RESULTS_TTL = 10 * 60
_KEEP_FINISHED_JOBS = 500


class JobTimeoutException(Exception):
	"""Raised inside a job that ran longer than its timeout."""

	def __init__(self, *args):
		super().__init__(*(args or ("Job exceeded maximum timeout value",)))


# ---------------------------------------------------------------------------------------------
# enqueue


def enqueue(
	method: str | Callable,
	queue: str = "default",
	timeout: int | None = None,
	event: str | None = None,
	is_async: bool = True,
	job_name: str | None = None,
	now: bool = False,
	enqueue_after_commit: bool = False,
	*,
	on_success: Callable | str | None = None,
	on_failure: Callable | str | None = None,
	at_front: bool = False,
	job_id: str | None = None,
	deduplicate: bool = False,
	**kwargs,
) -> Any:
	"""Run `method(**kwargs)` in the background; return the job (None when deduplicated or after commit).

	`now=True` (or `is_async=False`) runs it right away in this context and returns its result.
	"""
	is_async = kwargs.pop("async", is_async)
	if deduplicate:
		if not job_id:
			frappe.throw(_("`job_id` parameter is required for deduplication."))
		job = get_job(job_id)
		status = job.get_status() if job is not None else None
		if getattr(status, "value", status) in ("queued", "started"):
			frappe.logger().debug(f"Not queueing job {job_id} because it is in queue already")
			return None
		if job is not None and frappe.conf.get("redis_queue"):
			job.delete()  # a finished job with the same id would keep its old arguments (rq#793)

	if now or (not is_async and not frappe.flags.in_test):
		return frappe.call(method, **kwargs)

	queue_args = {
		"site": frappe.local.site,
		"user": frappe.session.user,
		"method": method,
		"event": event,
		"job_name": job_name
		or (method if isinstance(method, str) else getattr(method, "__name__", str(method))),
		"is_async": is_async,
		"kwargs": kwargs,
	}
	if not is_async:
		# in tests, a synchronous job still goes through execute_job, in the current context
		return execute_job(**queue_args)
	queue_args = {**queue_args, "sites_path": frappe.local.sites_path}  # for _execute_job_at

	validate_queue(queue)
	timeout = timeout or get_queues_timeout().get(queue) or 300
	namespaced_id = create_job_id(job_id)
	use_rq = bool(frappe.conf.get("redis_queue"))

	def enqueue_call():
		if use_rq:
			return _enqueue_rq(queue, queue_args, timeout, namespaced_id, at_front, on_success, on_failure)
		return _pool.submit(
			_InProcessJob(namespaced_id, queue, queue_args, timeout, on_success, on_failure), at_front
		)

	if enqueue_after_commit:
		frappe.db.after_commit.add(enqueue_call)
		return None
	return enqueue_call()


def enqueue_doc(
	doctype: str,
	name: str | None = None,
	method: str | None = None,
	queue: str = "default",
	timeout: int = 300,
	now: bool = False,
	**kwargs,
) -> Any:
	"""Run a method of a document in the background."""
	return enqueue(
		run_doc_method,
		doctype=doctype,
		name=name,
		doc_method=method,
		queue=queue,
		timeout=timeout,
		now=now,
		**kwargs,
	)


def run_doc_method(doctype: str, name: str, doc_method: str, **kwargs) -> Any:
	"""Load the document and call `doc_method(**kwargs)` on it (the job behind `frappe.enqueue_doc`)."""
	return getattr(frappe.get_doc(doctype, name), doc_method)(**kwargs)


# where a worker of this process finds the sites (a bench worker runs inside the sites folder: ".")
_job_sites_path: ContextVar[str] = ContextVar("job_sites_path", default=".")


def _execute_job_at(sites_path: str, **job) -> Any:
	"""`execute_job` for sites in `sites_path` (the worker threads of a process that is not in the sites folder)."""
	token = _job_sites_path.set(sites_path)
	try:
		return execute_job(**job)
	finally:
		_job_sites_path.reset(token)


def execute_job(site, method, event, job_name, kwargs, user=None, is_async=True, retry=0):
	"""Run one job: in its own site context when async, commit on success, roll back and log on failure."""
	retval = None
	if is_async:
		frappe.init(site, sites_path=_job_sites_path.get(), force=True)
		frappe.connect()
		if user:
			frappe.set_user(user)

	if isinstance(method, str):
		method_name = method
		method = frappe.get_attr(method)
	else:
		method_name = f"{method.__module__}.{method.__qualname__}"

	frappe.local.job = frappe._dict(
		site=site,
		method=method_name,
		job_name=job_name,
		kwargs=kwargs,
		user=user,
		after_job=CallbackManager(),
	)

	retry_job = False
	try:
		for before_job_task in frappe.get_hooks("before_job"):
			frappe.call(before_job_task, method=method_name, kwargs=kwargs, transaction_type="job")
		retval = method(**kwargs)
	except (frappe.QueryDeadlockError, frappe.RetryBackgroundJobError):
		frappe.db.rollback()
		if retry < 5 and is_async:
			retry_job = True
		else:
			frappe.log_error(title=method_name)
			frappe.db.commit()
			raise
	except Exception as e:
		frappe.db.rollback()
		frappe.log_error(title=method_name)
		frappe.db.commit()
		if not isinstance(e, JobTimeoutException):
			print(frappe.get_traceback(), file=sys.stderr)
		raise
	else:
		frappe.db.commit()
	finally:
		try:
			for after_job_task in frappe.get_hooks("after_job"):
				frappe.call(after_job_task, method=method_name, kwargs=kwargs, result=retval)
			frappe.local.job.after_job.run()
		finally:
			if is_async:
				frappe.destroy()

	if retry_job:
		time.sleep(retry + 1)
		return execute_job(
			site,
			method,
			event,
			job_name,
			kwargs,
			user=user,
			is_async=is_async,
			retry=retry + 1,
		)
	return retval


# ---------------------------------------------------------------------------------------------
# queues, ids, lookups


def get_queues_timeout() -> dict[str, int]:
	"""Default timeout per queue, with custom queues from the `workers` config."""
	timeouts = dict(_DEFAULT_TIMEOUTS)
	for name, worker in (frappe.conf.get("workers") or {}).items():
		timeouts[name] = (worker or {}).get("timeout") or 300
	return timeouts


def get_queue_list(queue_list: str | list | None = None) -> list[str]:
	"""The queue names (all known ones when `queue_list` is None)."""
	if queue_list:
		queues = [queue_list] if isinstance(queue_list, str) else list(queue_list)
		for q in queues:
			validate_queue(q)
		return queues
	return list(get_queues_timeout())


def validate_queue(queue: str) -> None:
	known = get_queues_timeout()
	if queue not in known:
		frappe.throw(_("Queue should be one of {0}").format(", ".join(known)))


def create_job_id(job_id: str | None = None) -> str:
	"""`<site>::<job_id>` (a random id when none is given)."""
	if not job_id:
		return str(uuid.uuid4())
	return f"{frappe.local.site}::{job_id}"


def is_job_enqueued(job_id: str) -> bool:
	"""Whether the job with this (site-local) id is queued or running."""
	return get_job_status(job_id) in ("queued", "started")


def get_job_status(job_id: str) -> str | None:
	"""queued, started, finished, failed (or None) for a job id given to enqueue."""
	job = get_job(job_id)
	if job is None:
		return None
	status = job.get_status()
	return getattr(status, "value", status)


def get_job(job_id: str):
	"""The job (in-process or RQ) for a job id given to enqueue, or None."""
	namespaced = create_job_id(job_id)
	if frappe.conf.get("redis_queue"):
		from rq.exceptions import NoSuchJobError
		from rq.job import Job

		try:
			return Job.fetch(_rq_job_id(namespaced), connection=get_redis_conn())
		except NoSuchJobError:
			return None
	return _pool.get(namespaced)


def get_jobs(site: str | None = None, queue: str | None = None, key: str = "method") -> dict[str, list]:
	"""{site: [job `key` values]} of queued and running jobs, like Frappe's get_jobs."""
	jobs_per_site: dict[str, list] = defaultdict(list)
	for job_kwargs in _pending_job_kwargs(queue):
		job_site = job_kwargs.get("site")
		if site is not None and job_site != site:
			continue
		if key in job_kwargs:
			jobs_per_site[job_site].append(job_kwargs[key])
		elif key in (job_kwargs.get("kwargs") or {}):
			jobs_per_site[job_site].append(job_kwargs["kwargs"][key])
	return jobs_per_site


def _pending_job_kwargs(queue: str | None) -> list[dict]:
	if not frappe.conf.get("redis_queue"):
		return [job.kwargs for job in _pool.pending(queue)]
	from rq.registry import StartedJobRegistry

	out = []
	for name in get_queue_list(queue):
		q = get_queue(name)
		out.extend(job.kwargs for job in q.jobs)
		registry = StartedJobRegistry(queue=q)
		for job in q.job_class.fetch_many(registry.get_job_ids(), connection=q.connection):
			if job:
				out.append(job.kwargs)
	return out


# ---------------------------------------------------------------------------------------------
# in-process pool


class _InProcessJob:
	"""A job of the in-process pool (attributes named as on an RQ Job)."""

	def __init__(self, job_id: str, queue: str, kwargs: dict, timeout: int, on_success=None, on_failure=None):
		self.id = job_id
		self.origin = queue
		self.kwargs = kwargs
		self.timeout = timeout
		self.on_success, self.on_failure = on_success, on_failure
		self.status = "queued"
		self.result = None
		self.exc_info: str | None = None
		self.enqueued_at = time.time()
		self.started_at: float | None = None
		self.ended_at: float | None = None
		self.done = threading.Event()
		self._guard = threading.Lock()
		self._running = False

	@property
	def func_name(self) -> str:
		return "frappe.utils.background_jobs.execute_job"

	@property
	def description(self) -> str:
		return str(self.kwargs.get("job_name"))

	def get_status(self, refresh: bool = True) -> str:
		return self.status

	def return_value(self, refresh: bool = False) -> Any:
		return self.result

	def is_finished(self) -> bool:
		return self.status == "finished"

	def is_failed(self) -> bool:
		return self.status == "failed"

	def __repr__(self) -> str:
		return f"<_InProcessJob {self.id} {self.description} {self.status}>"


class _Pool:
	"""One FIFO per queue, each drained by worker threads started on first use."""

	def __init__(self):
		self.cond = threading.Condition()
		self.queues: dict[str, deque] = defaultdict(deque)
		self.jobs: OrderedDict[str, _InProcessJob] = OrderedDict()
		self.threads: dict[str, list[threading.Thread]] = defaultdict(list)
		self.running = 0

	def submit(self, job: _InProcessJob, at_front: bool = False) -> _InProcessJob:
		with self.cond:
			self.jobs.pop(job.id, None)
			self.jobs[job.id] = job
			self._forget_old()
			if at_front:
				self.queues[job.origin].appendleft(job)
			else:
				self.queues[job.origin].append(job)
			self._ensure_workers(job.origin)
			self.cond.notify_all()
		return job

	def get(self, job_id: str) -> _InProcessJob | None:
		with self.cond:
			return self.jobs.get(job_id)

	def pending(self, queue: str | None = None) -> list[_InProcessJob]:
		with self.cond:
			return [
				j
				for j in self.jobs.values()
				if j.status in ("queued", "started") and (queue is None or j.origin == queue)
			]

	def wait_idle(self, timeout: float) -> bool:
		deadline = time.monotonic() + max(timeout, 0)
		with self.cond:
			while self.running or any(self.queues.values()):
				remaining = deadline - time.monotonic()
				if remaining <= 0:
					return False
				self.cond.wait(remaining)
			return True

	def start(self, queues: list[str] | None = None) -> None:
		with self.cond:
			for queue in queues or _DEFAULT_QUEUES:
				self._ensure_workers(queue)

	def _ensure_workers(self, queue: str) -> None:
		alive = [t for t in self.threads[queue] if t.is_alive()]
		wanted = max(1, int(_pool_size()))
		for i in range(len(alive), wanted):
			thread = threading.Thread(
				target=self._work, args=(queue,), name=f"frappe-worker-{queue}-{i}", daemon=True
			)
			thread.start()
			alive.append(thread)
		self.threads[queue] = alive

	def _forget_old(self) -> None:
		finished = [k for k, j in self.jobs.items() if j.status in ("finished", "failed")]
		for key in finished[: max(0, len(finished) - _KEEP_FINISHED_JOBS)]:
			self.jobs.pop(key, None)

	def _work(self, queue: str) -> None:
		while True:
			with self.cond:
				while not self.queues[queue]:
					self.cond.wait()
				job = self.queues[queue].popleft()
				job.status = "started"
				job.started_at = time.time()
				self.running += 1
			try:
				_run_job(job)
			except BaseException:  # a timeout landing after the job ended must not kill the worker
				pass
			finally:
				with self.cond:
					self.running -= 1
					self.cond.notify_all()


def _pool_size() -> int:
	try:
		return int(frappe.get_site_config().get("background_workers") or 1)
	except Exception:
		return 1


def _run_job(job: _InProcessJob) -> None:
	"""Run `job` in this worker thread; a timer raises JobTimeoutException in it after `timeout` s."""
	thread_id = threading.get_ident()
	timer = None
	try:
		try:
			with job._guard:
				job._running = True
			if job.timeout:
				timer = threading.Timer(job.timeout, _kill_job, args=(job, thread_id))
				timer.daemon = True
				timer.start()
			result = _execute_job_at(**job.kwargs)
		finally:
			with job._guard:
				job._running = False
			if timer:
				timer.cancel()
	except BaseException as e:
		job.status, job.exc_info, job.ended_at = "failed", traceback.format_exc(), time.time()
		_reset_context()
		_callback(job.on_failure, job, None, type(e), e, e.__traceback__)
	else:
		job.status, job.result, job.ended_at = "finished", result, time.time()
		_callback(job.on_success, job, None, result)
	finally:
		job.done.set()


def _kill_job(job: _InProcessJob, thread_id: int) -> None:
	with job._guard:
		if job._running:
			ctypes.pythonapi.PyThreadState_SetAsyncExc(
				ctypes.c_ulong(thread_id), ctypes.py_object(JobTimeoutException)
			)


def _reset_context() -> None:
	# a job interrupted mid-way may leave its context open
	try:
		if getattr(frappe.local, "db", None) is not None:
			frappe.destroy()
	except Exception:
		pass


def _callback(func: Callable | str | None, *args) -> None:
	"""Call an on_success / on_failure callback with RQ's arguments (job, connection, ...)."""
	if not func:
		return
	try:
		if isinstance(func, str):
			func = frappe.get_attr(func)
		func(*args)
	except Exception:
		print(traceback.format_exc(), file=sys.stderr)


_pool = _Pool()


_rq_threads: list[tuple[threading.Thread, threading.Event]] = []


def _start_inprocess_workers(queues: list[str] | None = None) -> None:
	"""Start this process's worker threads now (`huf serve`).

	Without `redis_queue`: the in-process pool (which otherwise starts on the first enqueue).
	With it: a thread that consumes the site's RQ queues, so one process still runs everything.
	"""
	conf = getattr(frappe.local, "conf", None) or {}
	if not conf.get("redis_queue"):
		_pool.start(queues)
		return
	from rq import SimpleWorker
	from rq.timeouts import TimerDeathPenalty

	class ThreadWorker(SimpleWorker):
		death_penalty_class = TimerDeathPenalty

		def _install_signal_handlers(self):
			pass  # only the main thread may set signal handlers

	conn = get_redis_conn()
	names = [generate_qname(q) for q in get_queue_list(queues)]
	stop = threading.Event()

	def consume():
		while not stop.is_set():
			try:
				ThreadWorker(
					names, name=f"{uuid.uuid4().hex[:8]}.{os.getpid()}.thread", connection=conn
				).work(burst=True, logging_level="WARNING")
			except Exception:
				print(traceback.format_exc(), file=sys.stderr)
			stop.wait(0.5)

	thread = threading.Thread(target=consume, name="frappe-rq-worker", daemon=True)
	thread.start()
	_rq_threads.append((thread, stop))


def _stop_inprocess_workers(timeout: float = 10) -> None:
	"""Stop the RQ consumer threads started by `_start_inprocess_workers` (pool threads are daemons)."""
	while _rq_threads:
		thread, stop = _rq_threads.pop()
		stop.set()
		thread.join(timeout)


# ---------------------------------------------------------------------------------------------
# RQ


def get_redis_conn(username=None, password=None):
	"""The Redis connection of the job queue (`redis_queue` in the site / common config)."""
	from frappe_lite.cache import get_backend

	url = frappe.conf.get("redis_queue")
	if not url:
		frappe.throw(_("`redis_queue` is not set in the site config"))
	return get_backend(url)


def get_redis_connection_without_auth():
	"""The connection Frappe publishes realtime events on (`redis_queue`); without Redis, this process's channels."""
	from frappe_lite.cache import get_backend
	from frappe_lite.realtime import LOCAL

	url = frappe.conf.get("redis_queue")
	return get_backend(url) if url else LOCAL


def _rq_job_id(job_id: str) -> str:
	"""RQ accepts only letters, digits, `_` and `-` in job ids: map `site::id` onto that, collision-free."""
	if re.fullmatch(r"[A-Za-z0-9_-]+", job_id):
		return job_id
	return re.sub(r"[^A-Za-z0-9_-]", "_", job_id)[:80] + "-" + hashlib.sha1(job_id.encode()).hexdigest()[:12]


def get_bench_id() -> str:
	"""Prefix of the RQ queue names: `bench_id` from config, else derived from the sites path."""
	bench_id = frappe.conf.get("bench_id")
	if bench_id:
		return bench_id
	sites_path = getattr(frappe.local, "sites_path", None) or "."
	return "huf-" + hashlib.sha1(os.path.abspath(sites_path).encode()).hexdigest()[:10]


def generate_qname(qtype: str) -> str:
	return f"{get_bench_id()}:{qtype}"


def get_queue(qtype: str, is_async: bool = True):
	"""The RQ queue `qtype` of this bench."""
	from rq import Queue

	validate_queue(qtype)
	return Queue(generate_qname(qtype), connection=get_redis_conn(), is_async=is_async)


def _enqueue_rq(
	queue: str, queue_args: dict, timeout: int, job_id: str, at_front: bool, on_success, on_failure
):
	from rq.job import Callback

	q = get_queue(queue)
	return q.enqueue_call(
		"frappe.utils.background_jobs._execute_job_at",
		kwargs=queue_args,
		timeout=timeout,
		job_id=_rq_job_id(job_id),
		at_front=at_front,
		on_success=Callback(on_success) if on_success else None,
		on_failure=Callback(on_failure) if on_failure else None,
		failure_ttl=frappe.conf.get("rq_job_failure_ttl", RQ_JOB_FAILURE_TTL),
		result_ttl=frappe.conf.get("rq_results_ttl", RQ_RESULTS_TTL),
	)


def start_worker(
	queue: str | None = None,
	quiet: bool = False,
	rq_username: str | None = None,
	rq_password: str | None = None,
	burst: bool = False,
) -> None:
	"""Consume jobs of the RQ queues (all, or `queue`, comma separated) until stopped (or empty, with burst)."""
	if not getattr(frappe.local, "conf", None):
		frappe.local.conf = frappe._dict(frappe.get_site_config())
	if not frappe.conf.get("redis_queue"):
		raise SystemExit(
			"No job queue to consume: `redis_queue` is not configured, so background jobs run in the "
			"process that enqueues them (e.g. `huf serve`). Set it with `huf --site SITE set-config "
			"redis_queue redis://127.0.0.1:6379` to run separate workers."
		)
	from rq import SimpleWorker, Worker

	queues = get_queue_list(queue.split(",") if queue else None)
	conn = get_redis_conn()
	# FRAPPE_BACKGROUND_WORKERS_NOFORK (as Frappe's worker pool): each job in this process, so what a job
	# imported (LiteLLM: ~1 s of CPU) stays imported for the next; a forked job imports it again
	no_fork = os.environ.get("FRAPPE_BACKGROUND_WORKERS_NOFORK", "").lower() in ("1", "true", "yes")
	worker = (SimpleWorker if no_fork else Worker)(
		[generate_qname(q) for q in queues], name=f"{uuid.uuid4().hex[:8]}.{os.getpid()}", connection=conn
	)
	kwargs = {"max_jobs": 5000 + random.randint(0, 50)} if no_fork else {}  # Frappe's RQ_MAX_JOBS
	worker.work(burst=burst, logging_level="WARNING" if quiet else "INFO", **kwargs)
