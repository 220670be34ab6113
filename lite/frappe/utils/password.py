"""Passwords: Password fields encrypted (Fernet, site `encryption_key`), user passwords hashed, both in `__Auth`."""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import os
import secrets

import frappe
from frappe import _

_PBKDF2_ROUNDS = 310_000  # OWASP guidance for PBKDF2-HMAC-SHA256; older hashes are upgraded on login
_PBKDF2_PREFIX = "$pbkdf2-sha256$"
_DUMMY_HASH = (
	f"{_PBKDF2_PREFIX}{_PBKDF2_ROUNDS}$AAAAAAAAAAAAAAAAAAAAAA$AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA"
)


# ---------------------------------------------------------------------------------------------
# encrypted Password fields


def set_encrypted_password(doctype: str, name: str, pwd: str, fieldname: str = "password") -> None:
	"""Store `pwd` encrypted for the field `fieldname` of a document."""
	frappe.db.sql(
		"""insert into `__Auth` (doctype, name, fieldname, password, encrypted) values (%s, %s, %s, %s, 1)
		on conflict (doctype, name, fieldname) do update set password=excluded.password, encrypted=1""",
		(doctype, str(name), fieldname, encrypt(pwd)),
	)


def get_decrypted_password(
	doctype: str, name: str, fieldname: str = "password", raise_exception: bool = True
) -> str | None:
	"""The plain value of an encrypted Password field (AuthenticationError when not set)."""
	result = frappe.db.sql(
		"select password from `__Auth` where doctype=%s and name=%s and fieldname=%s and encrypted=1 limit 1",
		(doctype, str(name), fieldname),
	)
	if result and result[0][0]:
		return decrypt(result[0][0], key=f"{doctype}.{name}.{fieldname}")
	if raise_exception:
		frappe.throw(
			_("Password not found for {0} {1} {2}").format(doctype, name, fieldname),
			frappe.AuthenticationError,
		)
	return None


def remove_encrypted_password(doctype: str, name: str, fieldname: str | None = "password") -> None:
	"""Forget the stored password of one field (or of every field when `fieldname` is None)."""
	if fieldname is None:
		delete_all_passwords_for(doctype, name)
		return
	frappe.db.sql(
		"delete from `__Auth` where doctype=%s and name=%s and fieldname=%s", (doctype, str(name), fieldname)
	)


def delete_all_passwords_for(doctype: str, name: str) -> None:
	frappe.db.sql("delete from `__Auth` where doctype=%s and name=%s", (doctype, str(name)))


def rename_password(doctype: str, old_name: str, new_name: str) -> None:
	frappe.db.sql(
		"update `__Auth` set name=%s where doctype=%s and name=%s", (str(new_name), doctype, str(old_name))
	)


def rename_password_field(doctype: str, old_fieldname: str, new_fieldname: str) -> None:
	frappe.db.sql(
		"update `__Auth` set fieldname=%s where doctype=%s and fieldname=%s",
		(new_fieldname, doctype, old_fieldname),
	)


# ---------------------------------------------------------------------------------------------
# hashed user passwords


def update_password(
	user: str, pwd: str, doctype: str = "User", fieldname: str = "password", logout_all_sessions: bool = False
) -> None:
	"""Store a one-way hash of `pwd` as the login password of `user`."""
	frappe.db.sql(
		"""insert into `__Auth` (doctype, name, fieldname, password, encrypted) values (%s, %s, %s, %s, 0)
		on conflict (doctype, name, fieldname) do update set password=excluded.password, encrypted=0""",
		(doctype, user, fieldname, _hash_password(pwd)),
	)
	if logout_all_sessions:
		_clear_other_sessions(user)


def check_password(
	user: str, pwd: str, doctype: str = "User", fieldname: str = "password", delete_tracker_cache: bool = True
) -> str:
	"""Return the user's name if `pwd` is right and the user is enabled, else raise AuthenticationError."""
	result = frappe.db.sql(
		"""select name, password from `__Auth`
		where doctype=%s and lower(name)=lower(%s) and fieldname=%s and encrypted=0 limit 1""",
		(doctype, user, fieldname),
		as_dict=True,
	)
	if not result:
		_verify_password(
			pwd, _DUMMY_HASH
		)  # same work as a real check, so timing does not reveal unknown users
		raise frappe.AuthenticationError(_("Incorrect User or Password"))
	if not _verify_password(pwd, result[0].password):
		raise frappe.AuthenticationError(_("Incorrect User or Password"))
	user = result[0].name
	if doctype == "User" and user != "Administrator" and not frappe.db.get_value("User", user, "enabled"):
		raise frappe.AuthenticationError(_("User disabled or missing"))
	if delete_tracker_cache:
		_delete_login_failed_cache(user)
	if _needs_rehash(result[0].password):
		update_password(user, pwd, doctype, fieldname)
	return user


def _hash_password(pwd: str) -> str:
	"""A salted PBKDF2-SHA256 hash in passlib's format (`$pbkdf2-sha256$rounds$salt$hash`)."""
	salt = secrets.token_bytes(16)
	digest = hashlib.pbkdf2_hmac("sha256", _as_bytes(pwd), salt, _PBKDF2_ROUNDS)
	return f"{_PBKDF2_PREFIX}{_PBKDF2_ROUNDS}${_ab64_encode(salt)}${_ab64_encode(digest)}"


def _verify_password(pwd: str, hashed: str | None) -> bool:
	"""Whether `pwd` matches a stored hash (pbkdf2-sha256, or argon2 when argon2-cffi is installed)."""
	if not hashed or pwd is None:
		return False
	if hashed.startswith(_PBKDF2_PREFIX):
		try:
			rounds, salt, digest = hashed[len(_PBKDF2_PREFIX) :].split("$")
			expected = _ab64_decode(digest)
			actual = hashlib.pbkdf2_hmac("sha256", _as_bytes(pwd), _ab64_decode(salt), int(rounds))
		except (ValueError, TypeError):
			return False
		return hmac.compare_digest(actual, expected)
	if hashed.startswith("$argon2"):
		try:
			from argon2 import PasswordHasher
			from argon2.exceptions import Argon2Error, InvalidHashError
		except ImportError:
			return False
		try:
			return PasswordHasher().verify(hashed, pwd)
		except (Argon2Error, InvalidHashError):
			return False
	return False


def _needs_rehash(hashed: str) -> bool:
	if not hashed.startswith(_PBKDF2_PREFIX):
		return False
	try:
		return int(hashed[len(_PBKDF2_PREFIX) :].split("$", 1)[0]) < _PBKDF2_ROUNDS
	except ValueError:
		return False


def _as_bytes(pwd: str | bytes) -> bytes:
	return pwd if isinstance(pwd, bytes) else str(pwd).encode("utf-8")


def _ab64_encode(data: bytes) -> str:
	# passlib's "adapted base64": no padding, "." instead of "+"
	return base64.b64encode(data).decode().rstrip("=").replace("+", ".")


def _ab64_decode(text: str) -> bytes:
	text = text.replace(".", "+")
	return base64.b64decode(text + "=" * (-len(text) % 4))


def _delete_login_failed_cache(user: str) -> None:
	try:
		cache = frappe.cache()
		for key in ("last_login_tried", "login_failed_count", "locked_account_time"):
			cache.hdel(key, user)
	except Exception:
		pass  # the login tracker is best effort; a missing cache must not block a valid login


def _clear_other_sessions(user: str) -> None:
	try:
		from frappe.sessions import clear_sessions
	except ImportError:
		clear_sessions = None
	if clear_sessions:
		clear_sessions(user=user, keep_current=True, force=True)
		return
	current = getattr(getattr(frappe.local, "session", None), "sid", None)
	frappe.db.sql("delete from `tabSessions` where user=%s and sid!=%s", (user, current or ""))


# ---------------------------------------------------------------------------------------------
# Fernet with the site's encryption_key


def encrypt(txt: str, encryption_key: str | None = None) -> str:
	"""Encrypt `txt` with the site's `encryption_key` (Fernet)."""
	from cryptography.fernet import Fernet

	try:
		cipher = Fernet(_as_bytes(encryption_key or get_encryption_key()))
	except (ValueError, TypeError):
		frappe.throw(
			_("Encryption key is in invalid format! Check encryption_key in site_config.json."),
			title=_("Invalid encryption key"),
		)
	return cipher.encrypt(_as_bytes(txt)).decode()


def decrypt(txt: str, encryption_key: str | None = None, key: str | None = None) -> str:
	"""Decrypt a value made by `encrypt`; a wrong `encryption_key` gives a clear error."""
	from cryptography.fernet import Fernet, InvalidToken

	try:
		cipher = Fernet(_as_bytes(encryption_key or get_encryption_key()))
		return cipher.decrypt(_as_bytes(txt)).decode()
	except (InvalidToken, ValueError, TypeError):
		message = _("Encryption key is invalid! Please check encryption_key in site_config.json.")
		if key:
			message += " " + _("Could not decrypt {0}.").format(key)
		message += " " + _(
			"If you restored this site, copy the site config that holds the original encryption_key."
		)
		frappe.throw(message, title=_("Encryption key is invalid!"))


def get_encryption_key() -> str:
	"""The site's Fernet key; generated and saved to site_config.json on first use."""
	conf = frappe.local.conf
	if not conf.get("encryption_key"):
		conf["encryption_key"] = _create_encryption_key(frappe.local.site_path)
	return conf["encryption_key"]


def _create_encryption_key(site_path: str) -> str:
	"""Add `encryption_key` to site_config.json unless another process already has (file lock, atomic write)."""
	import fcntl

	from cryptography.fernet import Fernet

	config_path = os.path.join(site_path, "site_config.json")
	lock_fd = os.open(site_path, os.O_RDONLY)
	try:
		fcntl.flock(lock_fd, fcntl.LOCK_EX)
		config, mode = {}, 0o600
		if os.path.exists(config_path):
			mode = os.stat(config_path).st_mode & 0o777
			with open(config_path) as f:
				config = json.load(f)
		if config.get("encryption_key"):
			return config["encryption_key"]
		config["encryption_key"] = Fernet.generate_key().decode()
		tmp_path = f"{config_path}.{os.getpid()}.tmp"
		with os.fdopen(os.open(tmp_path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600), "w") as f:
			json.dump(config, f, indent=1, sort_keys=True)
			f.flush()
			os.fsync(f.fileno())
		os.chmod(tmp_path, mode)
		os.replace(tmp_path, config_path)
		return config["encryption_key"]
	finally:
		fcntl.flock(lock_fd, fcntl.LOCK_UN)
		os.close(lock_fd)
