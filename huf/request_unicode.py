"""`before_request` hook: refuse request values holding text that is not valid Unicode.

JSON may escape one half of a UTF-16 surrogate pair ("\\ud800"); Python decodes it into a string that no
database driver can encode, so the value would end in a server error wherever it reaches a query. Such
a value, in a form field, in a JSON body or in a JSON string inside either, is refused with 417 naming
the argument, before any whitelisted function runs.
"""

import json
import re

import frappe
from frappe import _

# an escaped surrogate (either half of a pair): a JSON string holding one may decode to a lone surrogate
SURROGATE_ESCAPE = re.compile(r"\\u[dD][89a-fA-F][0-9a-fA-F]{2}")


def check_request_text() -> None:
	"""Refuse (417) a request argument whose text, or the text of JSON inside it, is not valid Unicode."""
	if getattr(frappe.local, "request", None) is None:
		return
	for key, value in (frappe.local.form_dict or {}).items():
		if not is_valid_unicode(key) or not is_valid_unicode(value):
			frappe.throw(
				_("Argument {0} holds text that is not valid Unicode (an unpaired surrogate).").format(
					frappe.bold(printable(key))
				),
				frappe.ValidationError,
				title=_("Invalid Request"),
			)


def is_valid_unicode(value: object) -> bool:
	"""Whether every string in `value` (nested dicts and lists, and JSON held in strings) encodes as UTF-8."""
	pending = [value]
	while pending:
		item = pending.pop()
		if isinstance(item, dict):
			pending.extend(item.keys())
			pending.extend(item.values())
		elif isinstance(item, list | tuple):
			pending.extend(item)
		elif isinstance(item, str):
			try:
				item.encode()
			except UnicodeEncodeError:
				return False
			if SURROGATE_ESCAPE.search(item):
				try:
					pending.append(json.loads(item))
				except (ValueError, RecursionError):
					pass  # not JSON: the escape is plain text and is stored as such
	return True


def printable(text: str) -> str:
	"""`text` with lone surrogates shown as escapes (for messages)."""
	return text.encode("utf-8", "backslashreplace").decode()
