"""Frappe Lite / Huf foundation benchmarks: prints numbers, asserts nothing.

	.venv/bin/python benchmarks/run.py            # throw-away site in a temp dir
	.venv/bin/python benchmarks/run.py --keep     # keep the site folder for inspection

Measures: document inserts per second, `frappe.get_all` of 1,000 rows, `/api/method/ping`
requests per second with 8 client threads (on `huf serve` and on gunicorn), and the cold time of
`huf --site S execute frappe.ping` (a new process each time).
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time

SITE = "bench.localhost"


def make_site(sites_path: str, site: str = SITE) -> None:
	"""A new `site` with Huf installed in `sites_path` (the context is left closed)."""
	import frappe
	from frappe_lite.installer import new_site

	with open(os.path.join(sites_path, "apps.txt"), "w") as f:
		f.write("huf\n")
	new_site(site, "admin", sites_path=sites_path, apps=["huf"])
	frappe.destroy()
	# benchmarks start hundreds of runs a minute: no per-user run limit (huf_run_rate_limit)
	set_site_config(sites_path, site, huf_run_rate_limit=0)


def set_site_config(sites_path: str, site: str, **values) -> None:
	"""Write `values` into `site`'s site_config.json (its other keys are kept)."""
	config = os.path.join(sites_path, site, "site_config.json")
	with open(config) as f:
		conf = json.load(f)
	conf.update(values)
	with open(config, "w") as f:
		json.dump(conf, f, indent=1)


def use_redis(sites_path: str, site: str, url: str) -> str:
	"""Point `site`'s cache at the redis-server `url` (database 0) and its queue at database 1 of it;
	the queue's URL."""
	queue = url.replace("/0", "/1")
	set_site_config(sites_path, site, redis_cache=url, redis_queue=queue)
	return queue


def bench_inserts(n: int = 2000) -> float:
	import frappe

	start = time.perf_counter()
	for i in range(n):
		frappe.get_doc({"doctype": "ToDo", "description": f"benchmark row {i}"}).insert()
	frappe.db.commit()
	return n / (time.perf_counter() - start)


def bench_get_all(rounds: int = 20) -> float:
	import frappe

	timings = []
	for _ in range(rounds):
		start = time.perf_counter()
		rows = frappe.get_all("ToDo", fields=["name", "description", "status", "modified"], limit=1000)
		timings.append(time.perf_counter() - start)
		assert len(rows) == 1000
	return statistics.median(timings) * 1000


def bench_ping_dev_server(sites_path: str) -> float:
	"""`huf serve`: werkzeug's threaded server in the one process."""
	import frappe.app
	from frappe_lite.server import make_server

	frappe.app._sites_path = sites_path
	server = make_server(SITE)
	threading.Thread(target=server.serve_forever, daemon=True).start()
	try:
		return ping_rate(server.server_port)
	finally:
		server.shutdown()


def bench_ping_gunicorn(sites_path: str) -> float:
	"""`huf serve --production`: gunicorn, 2 workers x 8 threads."""
	import socket

	with socket.socket() as s:
		s.bind(("127.0.0.1", 0))
		port = s.getsockname()[1]
	env = dict(os.environ, FRAPPE_SITE=SITE, SITES_PATH=sites_path, HUF_SITES_PATH=sites_path)
	cmd = [
		sys.executable,
		"-m",
		"gunicorn",
		"-b",
		f"127.0.0.1:{port}",
		"-w",
		"2",
		"-k",
		"gthread",
		"--threads",
		"8",
		"frappe_lite.server:production_app()",
	]
	proc = subprocess.Popen(
		cmd, env=env, cwd=sites_path, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
	)
	try:
		for _ in range(100):
			try:
				http.client.HTTPConnection("127.0.0.1", port, timeout=1).request("GET", "/api/method/ping")
				break
			except OSError:
				time.sleep(0.1)
		return ping_rate(port)
	finally:
		proc.terminate()
		proc.wait()


def ping_rate(port: int, threads: int = 8, seconds: float = 3.0) -> float:
	"""Requests per second of `/api/method/ping` from `threads` keep-alive clients."""
	counts = [0] * threads
	deadline = time.perf_counter() + seconds

	def client(i: int) -> None:
		conn = http.client.HTTPConnection("127.0.0.1", port)
		while time.perf_counter() < deadline:
			conn.request("GET", "/api/method/ping")
			body = conn.getresponse().read()
			assert b"pong" in body, body
			counts[i] += 1
		conn.close()

	workers = [threading.Thread(target=client, args=(i,)) for i in range(threads)]
	start = time.perf_counter()
	for w in workers:
		w.start()
	for w in workers:
		w.join()
	return sum(counts) / (time.perf_counter() - start)


def bench_cold_execute(sites_path: str, rounds: int = 5) -> float:
	huf = os.path.join(os.path.dirname(sys.executable), "huf")
	env = dict(os.environ, HUF_SITES_PATH=sites_path)
	timings = []
	for _ in range(rounds):
		start = time.perf_counter()
		out = subprocess.run(
			[huf, "--site", SITE, "execute", "frappe.ping"],
			env=env,
			capture_output=True,
			text=True,
			check=True,
		)
		timings.append(time.perf_counter() - start)
		assert "pong" in out.stdout, out.stdout
	return statistics.median(timings)


def main() -> None:
	parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
	parser.add_argument("--keep", action="store_true", help="keep the temporary sites folder")
	args = parser.parse_args()
	os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")
	sites_path = tempfile.mkdtemp(prefix="huf-bench-")
	os.environ["HUF_SITES_PATH"] = sites_path
	try:
		import frappe

		make_site(sites_path)
		frappe.init(SITE, sites_path)
		frappe.connect()
		print(f"document inserts:          {bench_inserts():8.0f} docs/s")
		print(f"get_all 1,000 rows:        {bench_get_all():8.2f} ms (median of 20)")
		frappe.destroy()
		print(f"ping, 8 clients, serve:    {bench_ping_dev_server(sites_path):8.0f} req/s")
		print(f"ping, 8 clients, gunicorn: {bench_ping_gunicorn(sites_path):8.0f} req/s")
		print(f"cold `huf execute ping`:   {bench_cold_execute(sites_path):8.3f} s (median of 5)")
	finally:
		if args.keep:
			print(f"sites kept in {sites_path}")
		else:
			shutil.rmtree(sites_path, ignore_errors=True)


if __name__ == "__main__":
	main()
