"""Lite infrastructure: the site's encryption_key is created once, atomically, even under concurrency."""

import json
import os
import threading

from cryptography.fernet import Fernet
from frappe.utils.password import _create_encryption_key


def test_key_is_created_and_written_once(tmp_path):
	config = tmp_path / "site_config.json"
	config.write_text(json.dumps({"db_path": "x.sqlite3"}))

	key = _create_encryption_key(str(tmp_path))

	Fernet(key.encode())  # a valid Fernet key
	saved = json.loads(config.read_text())
	assert saved == {"db_path": "x.sqlite3", "encryption_key": key}
	assert _create_encryption_key(str(tmp_path)) == key
	assert [p.name for p in tmp_path.iterdir()] == ["site_config.json"]  # no temp files left


def test_existing_key_is_kept(tmp_path):
	existing = Fernet.generate_key().decode()
	(tmp_path / "site_config.json").write_text(json.dumps({"encryption_key": existing}))
	assert _create_encryption_key(str(tmp_path)) == existing


def test_concurrent_first_use_agrees_on_one_key(tmp_path):
	(tmp_path / "site_config.json").write_text("{}")
	keys: list[str] = []
	barrier = threading.Barrier(8)

	def worker():
		barrier.wait()
		keys.append(_create_encryption_key(str(tmp_path)))

	threads = [threading.Thread(target=worker) for _ in range(8)]
	for t in threads:
		t.start()
	for t in threads:
		t.join()
	assert len(set(keys)) == 1
	assert json.loads((tmp_path / "site_config.json").read_text())["encryption_key"] == keys[0]


def test_site_config_keeps_its_permissions(tmp_path):
	config = tmp_path / "site_config.json"
	config.write_text("{}")
	os.chmod(config, 0o640)
	_create_encryption_key(str(tmp_path))
	assert os.stat(config).st_mode & 0o777 == 0o640


def test_passlib_hashes_from_a_frappe_bench_are_accepted_and_upgraded():
	"""A `$pbkdf2-sha256$29000$...` hash (passlib's format, as Frappe stores it) still logs in."""
	import base64
	import hashlib

	import frappe
	from frappe.utils.password import _PBKDF2_ROUNDS, check_password

	def ab64(data: bytes) -> str:
		return base64.b64encode(data).decode().rstrip("=").replace("+", ".")

	salt = b"0123456789abcdef"
	digest = hashlib.pbkdf2_hmac("sha256", b"bench-password", salt, 29000)
	legacy = f"$pbkdf2-sha256$29000${ab64(salt)}${ab64(digest)}"
	frappe.db.sql(
		"insert into `__Auth` (doctype, name, fieldname, password, encrypted) values ('User', 'Administrator', 'password', %s, 0)"
		" on conflict (doctype, name, fieldname) do update set password=excluded.password, encrypted=0",
		(legacy,),
	)
	assert check_password("Administrator", "bench-password") == "Administrator"
	stored = frappe.db.sql(
		"select password from `__Auth` where doctype='User' and name='Administrator' and fieldname='password'"
	)[0][0]
	assert stored.startswith(f"$pbkdf2-sha256${_PBKDF2_ROUNDS}$")
	assert check_password("Administrator", "bench-password") == "Administrator"
