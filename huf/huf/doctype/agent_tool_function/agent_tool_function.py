import inspect
import json
import re
from collections.abc import Callable

import frappe
from frappe import _
from frappe.model.document import Document

from huf.huf.app_tools import find_registered_tool
from huf.huf.row_secrets import forget_removed_row_secrets, forget_row_secrets
from huf.huf.tool_approval_defaults import FIELD as REQUIRES_APPROVAL
from huf.huf.tool_approval_defaults import apply_default as apply_approval_default
from huf.huf.tool_schema import (
	CLIENT_FUNCTION_PATTERN,
	CLIENT_SIDE,
	DOCTYPE_TOOL_TYPES,
	ENUM_TYPES,
	FIELD_PARAMETER_TYPES,
	FIELDNAME_PATTERN,
	FUNCTION_TOOL_TYPES,
	HTTP_TOOL_TYPES,
	TOOL_NAME_PATTERN,
	build_function_definition,
	split_options,
)
from huf.huf.validators import throw_if_duplicate_rows, validate_http_url

HEADER_NAME_PATTERN = re.compile(r"^[!#$%&'*+.^_`|~0-9A-Za-z-]+$")
ANNOTATION_TYPES = {
	"str": "string",
	"int": "integer",
	"float": "number",
	"bool": "boolean",
	"list": "array",
	"tuple": "array",
	"set": "array",
	"dict": "object",
}


class AgentToolFunction(Document):
	# begin: auto-generated types
	# This code is auto-generated. Do not modify anything in this block.

	from typing import TYPE_CHECKING

	if TYPE_CHECKING:
		from frappe.types import DF

		from huf.huf.doctype.agent_function_params.agent_function_params import AgentFunctionParams
		from huf.huf.doctype.agent_tool_http_header.agent_tool_http_header import AgentToolHTTPHeader

		agent: DF.Link | None
		base_url: DF.Data | None
		description: DF.SmallText
		function_definition: DF.JSON | None
		function_path: DF.Data | None
		http_headers: DF.Table[AgentToolHTTPHeader]
		parameters: DF.Table[AgentFunctionParams]
		pass_parameters_as_json: DF.Check
		provider_app: DF.Data | None
		reference_doctype: DF.Link | None
		requires_approval: DF.Check
		tool_name: DF.Data
		tool_type: DF.Link
		types: DF.Literal[
			"",
			"Get Document",
			"Get Multiple Documents",
			"Get List",
			"Create Document",
			"Create Multiple Documents",
			"Update Document",
			"Update Multiple Documents",
			"Delete Document",
			"Delete Multiple Documents",
			"Submit Document",
			"Cancel Document",
			"Get Amended Document",
			"Custom Function",
			"App Provided",
			"Attach File to Document",
			"Get Report Result",
			"Get Value",
			"Set Value",
			"GET",
			"POST",
			"Run Agent",
			"Speech to Text",
			"Client Side",
		]
	# end: auto-generated types

	def __setup__(self) -> None:
		# Frappe fills unset fields of a new document from its defaults; Requires Approval is left unset
		# so that `before_insert` can tell a tool created without it (huf/huf/tool_approval_defaults.py).
		self.dont_update_if_missing = [*self.dont_update_if_missing, REQUIRES_APPROVAL]

	def before_insert(self) -> None:
		apply_approval_default(self)  # a new tool that deletes or sends starts asking for approval

	def validate(self) -> None:
		self.tool_name = (self.tool_name or "").strip()
		if not TOOL_NAME_PATTERN.match(self.tool_name):
			frappe.throw(
				_("Tool Name may contain only letters, digits, _ and -, at most 64 characters (no spaces).")
			)
		self.validate_parameters()
		self.validate_type_fields()
		self.validate_http_headers()
		self.function_definition = json.dumps(build_function_definition(self), indent=1)

	def on_update(self) -> None:
		forget_removed_row_secrets(self, "http_headers", "value")

	def on_trash(self) -> None:
		forget_row_secrets(self, "http_headers", "value")

	# -- type specific fields ----------------------------------------------------------------------

	def validate_type_fields(self) -> None:
		if self.types in DOCTYPE_TOOL_TYPES:
			if not self.reference_doctype:
				frappe.throw(_("Reference DocType is required for a {0} tool.").format(_(self.types)))
			if self.types in FIELD_PARAMETER_TYPES:
				self.validate_parameters_against_doctype()
		elif self.types in FUNCTION_TOOL_TYPES:
			self.get_function()
		elif self.types == "Run Agent":
			if not self.agent:
				frappe.throw(_("Agent is required for a Run Agent tool."))
		elif self.types == CLIENT_SIDE:
			self.function_path = (self.function_path or "").strip() or None
			if self.function_path and not CLIENT_FUNCTION_PATTERN.match(self.function_path):
				frappe.throw(
					_(
						"Function Path of a Client Side tool is the name of a browser function (letters, digits, _ and .), not {0}."
					).format(frappe.bold(self.function_path))
				)
		elif self.types in HTTP_TOOL_TYPES:
			if self.base_url:
				self.base_url = validate_http_url(self.base_url, _("Base URL"))
			elif not any(row.fieldname == "url" and not row.child_table_name for row in self.parameters):
				frappe.throw(_("A {0} tool needs a Base URL or a parameter named url.").format(self.types))

	def get_function(self) -> Callable | None:
		"""The whitelisted function of a Custom Function tool; for App Provided, checks the hook registration (no import)."""
		path = (self.function_path or "").strip()
		if not path:
			frappe.throw(_("Function Path is required for a {0} tool.").format(_(self.types)))
		self.function_path = path
		if self.types == "App Provided":
			# Only what an installed app declares in huf_tools: any other dotted path would let a tool author run arbitrary code.
			registered = find_registered_tool(path)
			if not registered:
				frappe.throw(
					_(
						"{0} is not registered by any installed app's huf_tools hook, so it cannot be an App Provided tool."
					).format(frappe.bold(path)),
					frappe.PermissionError,
				)
			app = registered[0]
			self.function_path = registered[1][
				"function_path"
			]  # an alias (e.g. upstream's path) becomes the path
			if self.provider_app and self.provider_app != app:
				frappe.throw(
					_("{0} is registered by the app {1}, not {2}.").format(
						frappe.bold(path), app, self.provider_app
					)
				)
			self.provider_app = app
			return None
		try:
			function = frappe.get_attr(path)
		except Exception:
			frappe.throw(_("Function {0} could not be found.").format(frappe.bold(path)))
		if not callable(function):
			frappe.throw(_("{0} is not a function.").format(frappe.bold(path)))
		if getattr(function, "__func__", function) not in frappe.whitelisted:
			frappe.throw(
				_("Function {0} must be decorated with @frappe.whitelist() to be used as a tool.").format(
					frappe.bold(path)
				),
				frappe.PermissionError,
			)
		return function

	# -- parameters ----------------------------------------------------------------------------------

	def validate_parameters(self) -> None:
		seen = set()
		for row in self.parameters:
			row.fieldname = (row.fieldname or "").strip()
			row.child_table_name = (row.child_table_name or "").strip() or None
			row.label = row.label or frappe.unscrub(row.fieldname)
			if not FIELDNAME_PATTERN.match(row.fieldname):
				frappe.throw(
					_(
						"Parameters row {0}: {1} is not a valid fieldname (letters, digits and _, not starting with a digit)."
					).format(row.idx, frappe.bold(row.fieldname))
				)
			key = (row.child_table_name, row.fieldname)
			if key in seen:
				frappe.throw(
					_("Parameters row {0}: {1} is defined twice.").format(row.idx, frappe.bold(row.fieldname))
				)
			seen.add(key)
			options = split_options(row.options)
			if options and row.type not in ENUM_TYPES:
				frappe.throw(
					_(
						"Parameters row {0}: options can only be given for string, integer, number or array parameters."
					).format(row.idx)
				)
			if row.type in ("integer", "number"):
				for option in options:
					try:
						int(option) if row.type == "integer" else float(option)
					except ValueError:
						frappe.throw(
							_("Parameters row {0}: option {1} is not a {2}.").format(
								row.idx, frappe.bold(option), row.type
							)
						)

	def validate_parameters_against_doctype(self) -> None:
		meta = frappe.get_meta(self.reference_doctype)
		for row in self.parameters:
			target = meta
			if row.child_table_name:
				table = meta.get_field(row.child_table_name)
				if not table or table.fieldtype not in ("Table", "Table MultiSelect"):
					frappe.throw(
						_("Parameters row {0}: {1} is not a table of {2}.").format(
							row.idx, frappe.bold(row.child_table_name), self.reference_doctype
						)
					)
				target = frappe.get_meta(table.options)
			if row.fieldname == "document_id" and not row.child_table_name:
				continue
			if row.fieldname != "name" and not target.has_field(row.fieldname):
				frappe.throw(
					_("Parameters row {0}: {1} has no field {2}.").format(
						row.idx, target.name, frappe.bold(row.fieldname)
					)
				)

	def validate_http_headers(self) -> None:
		for row in self.http_headers:
			row.key = (row.key or "").strip()
			if not HEADER_NAME_PATTERN.match(row.key):
				frappe.throw(
					_("HTTP Headers row {0}: {1} is not a valid header name.").format(
						row.idx, frappe.bold(row.key)
					)
				)
		throw_if_duplicate_rows(self.http_headers, "key", _("HTTP Headers"))

	# -- Desk button ---------------------------------------------------------------------------------

	@frappe.whitelist()
	def fetch_parameters_from_code(self) -> list:
		"""Fill the Parameters table from the function's signature (or its huf_tools definition)."""
		self.check_permission("write")
		if self.types not in ("Custom Function", "App Provided"):
			frappe.throw(
				_("Parameters can only be read from code for Custom Function and App Provided tools.")
			)
		function = self.get_function()
		existing = {row.fieldname: row for row in self.parameters if not row.child_table_name}
		if self.types == "App Provided":
			rows = [dict(row) for row in find_registered_tool(self.function_path)[1].get("parameters") or []]
		else:
			rows = signature_parameters(function)
		self.set("parameters", [])
		for row in rows:
			previous = existing.get(row.get("fieldname"))
			if previous and previous.description and not row.get("description"):
				row["description"] = previous.description
			self.append("parameters", row)
		return [row.as_dict() for row in self.parameters]


def signature_parameters(function: Callable) -> list[dict]:
	"""Parameter rows for the arguments of `function` (types from annotations, required when no default)."""
	rows = []
	for name, parameter in inspect.signature(function).parameters.items():
		if name in ("self", "cls") or parameter.kind in (parameter.VAR_POSITIONAL, parameter.VAR_KEYWORD):
			continue
		rows.append(
			{
				"fieldname": name,
				"label": frappe.unscrub(name),
				"type": annotation_json_type(parameter.annotation),
				"required": int(parameter.default is inspect.Parameter.empty),
			}
		)
	return rows


def annotation_json_type(annotation) -> str:
	"""JSON schema type for a Python annotation (a type or its string form); string when unknown."""
	if annotation is inspect.Parameter.empty:
		return "string"
	if isinstance(annotation, type):
		return ANNOTATION_TYPES.get(annotation.__name__, "string")
	for part in re.split(r"[|\[\],\s]+", str(annotation).replace("typing.", "")):
		if part.lower() in ANNOTATION_TYPES:
			return ANNOTATION_TYPES[part.lower()]
	return "string"
