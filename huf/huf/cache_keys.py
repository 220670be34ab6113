"""Cache keys that follow the database: `forget` drops one at a change, and again when that change's
transaction ends, since another process may fill it from the database before the change is committed."""

from functools import partial

import frappe


def forget(key: str, prefix: bool = False) -> None:
	"""Drop the cache key `key` (with `prefix`: every key starting with it) now and at commit or rollback."""
	_drop(key, prefix)
	frappe.db.after_commit.add(partial(_drop, key, prefix))
	frappe.db.after_rollback.add(partial(_drop, key, prefix))


def _drop(key: str, prefix: bool) -> None:
	if prefix:
		frappe.cache.delete_keys(key)
	else:
		frappe.cache.delete_value(key)
