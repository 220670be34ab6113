"""`huf serve` refuses a JSON request body that Frappe could not parse, with 417 instead of Frappe's 500.

Frappe parses a JSON body (`frappe.app.make_form_dict`) before any app code runs, so a malformed body
or one nested too deeply for Python's parser (about 1,000 levels) ends in a 500 and an Error Log. On a
bench nothing in front of Frappe looks inside bodies; standalone, this middleware answers such a body
itself, as Frappe answers a ValidationError, and Frappe never sees it.
"""

from __future__ import annotations

import io
import json

JSON_MIMETYPES = ("application/json",)
STATUS = "417 Expectation Failed"


class JsonBody:
	"""WSGI middleware: a JSON body that does not parse gets 417 `ValidationError` naming the reason."""

	def __init__(self, app):
		self.app = app

	def __call__(self, environ, start_response):
		mimetype = (environ.get("CONTENT_TYPE") or "").split(";")[0].strip().lower()
		length = environ.get("CONTENT_LENGTH")
		if mimetype not in JSON_MIMETYPES and not mimetype.endswith("+json"):
			return self.app(environ, start_response)
		if not (length and length.isdigit() and int(length)):
			return self.app(environ, start_response)  # no body, or chunked: left to Frappe
		body = environ["wsgi.input"].read(int(length))
		environ["wsgi.input"] = io.BytesIO(body)
		problem = json_problem(body)
		if problem is None:
			return self.app(environ, start_response)
		message = f"The request body is not valid JSON: {problem}."
		payload = json.dumps(
			{
				"exc_type": "ValidationError",
				"_server_messages": json.dumps([json.dumps({"message": message, "indicator": "red"})]),
			}
		).encode()
		start_response(STATUS, [("Content-Type", "application/json"), ("Content-Length", str(len(payload)))])
		return [payload]


def json_problem(body: bytes) -> str | None:
	"""Why Python's JSON parser (Frappe's) refuses `body`, or None when it parses."""
	try:
		json.loads(body.decode("utf-8"))
	except RecursionError:
		return "it is nested too deeply"
	except UnicodeDecodeError:
		return "it is not UTF-8"
	except ValueError as e:
		return str(e)
	return None
