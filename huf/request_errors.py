"""How Huf answers a request that goes wrong, the same on a bench and on Frappe Lite.

- `check_arguments` (an `auth_hooks` entry): a call of one of Huf's whitelisted functions without a
  required argument gets 417 naming the argument (a JSON array body, which Frappe passes as the argument
  `data`: 417 asking for an object). Frappe calls the function regardless and answers the TypeError with
  a 500; Huf cannot change Frappe's dispatch, and defaults plus a check in each of ~90 functions would
  repeat one rule ~90 times. So this hook resolves the function the request calls as Frappe will (the
  legacy `cmd`, else `/api/method/<method>`, through `override_whitelisted_methods`) and compares its
  signature with the request's arguments before it runs. It is an auth hook because Frappe calls those
  after authenticating the request (session cookie, API keys, OAuth) and before dispatching it, while
  `before_request` hooks run before API keys are read. A call Frappe refuses itself (not whitelisted,
  not for guests, another HTTP method) is left to Frappe, so the answer tells no more than Frappe's.
  Controller methods (run_doc_method) take no required arguments; `huf/tests/test_request_errors.py`
  checks that.
- `strip_tracebacks` (an `after_request` entry): Frappe puts the Python traceback of an error (`exc`,
  and `exception`, its last line) in its JSON answer to every System User while System Settings' "Show
  Full Error" is on (the default). Huf keeps it only for System Managers and sites in developer mode and
  takes it out of the answer for anyone else. An error raised without a message of its own (Frappe's
  FrappeTypeError naming an argument, a bare `raise ValidationError(...)`) had its text only there: a 4xx
  answer gets it as its message instead. Setting Frappe's `flags.disable_traceback` would lose that text.
"""

import inspect
import json
from collections.abc import Callable

import frappe
from frappe import _

from huf.request_limits import JSON_ARRAY

_VARIADIC = (inspect.Parameter.VAR_POSITIONAL, inspect.Parameter.VAR_KEYWORD)


def check_arguments() -> None:
	"""Refuse (417, naming them) a call of a Huf function that lacks required arguments."""
	request = getattr(frappe.local, "request", None)
	fn = called_function(request) if request is not None else None
	if fn is None:
		return
	given = frappe.get_newargs(fn, dict(frappe.local.form_dict))
	missing = [name for name in required_arguments(fn) if name not in given]
	if not missing:
		return
	method = f"{fn.__module__}.{fn.__name__}"
	if request.is_json and JSON_ARRAY.match(request.get_data(cache=True, as_text=True)):
		frappe.throw(
			_("The request body must be a JSON object of the arguments of {0}, not an array.").format(method),
			frappe.ValidationError,
			title=_("Invalid Request"),
		)
	names = ", ".join(f"'{name}'" for name in missing)
	message = (
		_("Missing argument {0} in '{1}'.") if len(missing) == 1 else _("Missing arguments {0} in '{1}'.")
	)
	frappe.throw(message.format(names, method), frappe.MandatoryError, title=_("Missing Argument"))


def required_arguments(fn: Callable) -> list[str]:
	"""The parameters of `fn` without a default (self, *args and **kwargs left out)."""
	return [
		name
		for name, parameter in inspect.signature(fn).parameters.items()
		if parameter.kind not in _VARIADIC and parameter.default is parameter.empty and name != "self"
	]


def called_function(request) -> Callable | None:
	"""The whitelisted Huf function the request calls, when Frappe will call it for this caller; else None."""
	cmd = frappe.local.form_dict.get("cmd") or method_in_path(request.path)
	if request.method == "OPTIONS" or not isinstance(cmd, str):
		return None
	overrides = frappe.get_hooks("override_whitelisted_methods", {}).get(cmd, [])
	cmd = overrides[-1] if overrides else cmd  # the last override, as Frappe calls it (both lines)
	if not cmd.startswith("huf."):
		return None
	try:
		fn = frappe.get_attr(cmd)
	except Exception:
		return None  # Frappe answers it ("Failed to get method")
	fn = getattr(fn, "__func__", fn)
	allowed = frappe.allowed_http_methods_for_whitelisted_func.get(fn) or ()
	if fn not in frappe.whitelisted or request.method not in allowed:
		return None
	if frappe.session.user == "Guest" and fn not in frappe.guest_methods:
		return None
	return fn


def method_in_path(path: str) -> str | None:
	"""The method `/api/method/<method>` names (also under /api/v1 and /api/v2)."""
	parts = path.strip("/").split("/")
	version = parts.pop(1) if parts[1:2] in (["v1"], ["v2"]) else "v1"
	if parts[:2] != ["api", "method"] or len(parts) < 3:
		return None
	if version == "v2" and len(parts) > 3:
		return None  # /api/v2/method/<doctype>/<method>: a function of the DocType's module
	return parts[2]  # v1 ignores what follows a further slash


def strip_tracebacks(response=None, request=None) -> None:
	"""Take the traceback out of a JSON error answer to anyone but a System Manager (developer mode: kept);
	a 4xx answer without a message gets the exception's own text as one."""
	if response is None or response.is_streamed or response.status_code < 400:
		return
	if response.mimetype != "application/json":
		return
	try:
		body = json.loads(response.get_data(as_text=True))
	except ValueError:
		return
	errors = body.get("errors") if isinstance(body, dict) else None  # API v2: one entry per error
	entries = [error for error in errors if isinstance(error, dict)] if isinstance(errors, list) else [body]
	if not any(isinstance(entry, dict) and ("exc" in entry or "exception" in entry) for entry in entries):
		return
	if frappe.conf.developer_mode or "System Manager" in frappe.get_roles():
		return
	for entry in entries:
		entry.pop("exc", None)
		entry.pop("_exc_source", None)
		text = exception_text(entry.pop("exception", None)) if response.status_code < 500 else ""
		if text and entry is body and not body.get("_server_messages"):
			message = {"message": text, "indicator": "red", "raise_exception": 1}
			body["_server_messages"] = json.dumps([json.dumps(message)])
		elif text and entry is not body and not entry.get("message"):
			entry["message"] = text
	response.set_data(json.dumps(body, separators=(",", ":")))


def exception_text(exception: str | None) -> str:
	"""The message of an exception as a traceback ends ("module.Error: message"; v2: the whole traceback)."""
	last = (exception or "").strip().splitlines()[-1:] or [""]
	return last[0].split(": ", 1)[1].strip() if ": " in last[0] else ""
