"""`/api/*`: REST API v1 (`/api/method/<cmd>`, `/api/resource/<DocType>[/<name>]`), also under `/api/v1`."""

from enum import Enum

from werkzeug.exceptions import NotFound
from werkzeug.routing import Map, Submount
from werkzeug.wrappers import Request, Response

import frappe
import frappe.client
from frappe.utils.response import build_response


class ApiVersion(str, Enum):
	V1 = "v1"
	V2 = "v2"


def handle(request: Request):
	"""Entry point for `/api` methods: dispatch, then `{"data": ...}` (or the method's own response)."""
	try:
		endpoint, arguments = API_URL_MAP.bind_to_environ(request.environ).match()
	except NotFound:  # Wrap 404 - backward compatiblity
		raise frappe.DoesNotExistError from None

	data = endpoint(**arguments)
	if isinstance(data, Response):
		return data

	if data is not None:
		frappe.response["data"] = data
	return build_response("json")


from frappe.api.v1 import url_rules as v1_rules  # noqa: E402

API_URL_MAP = Map(
	[
		Submount("/api", v1_rules),
		Submount(f"/api/{ApiVersion.V1.value}", v1_rules),
	],
	strict_slashes=False,
	merge_slashes=False,
)


def get_api_version() -> ApiVersion | None:
	if not frappe.request:
		return None
	if frappe.request.path.startswith(f"/api/{ApiVersion.V2.value}"):
		return ApiVersion.V2
	return ApiVersion.V1
