"""file: read, write or delete a Frappe File as the run's acting user, with Frappe's permission checks.

- `write`: a new File named `file_name` holding the text `content` (both `{{ }}` templates), private
  unless `is_private` is off, optionally attached to a document (`attached_to_doctype` and
  `attached_to_name`: the acting user needs write on it). Output: the File's name, file_name,
  file_url, is_private and file_size.
- `read`: the text of the File `file` (its name or file URL, a template); the acting user needs read
  on it (Frappe's File rules). Output: as for write, plus `content`. A file that is not text fails.
- `delete`: the File `file`, as Frappe's delete (the acting user needs delete on it). Output: its name.

Content is text (UTF-8), at most `huf_flow_file_max_bytes` (site config, default 1 MB) and never
above Frappe's own upload limit.
"""

from __future__ import annotations

from typing import Any

import frappe
from frappe import _
from frappe.utils import cint

from huf.ai.flows import context as flow_context
from huf.ai.flows.nodes.base import NodeCall, NodeResult
from huf.ai.flows.nodes.schema import missing_settings, node_schema, problem, setting

OPERATIONS = ("read", "write", "delete")
DEFAULT_MAX_BYTES = 1024 * 1024  # site config huf_flow_file_max_bytes
FILE_FIELDS = ("name", "file_name", "file_url", "is_private", "file_size")


class FileNodeError(frappe.ValidationError):
	"""A file node's file or settings are wrong (the message names the node)."""


def file_node(call: NodeCall) -> NodeResult:
	operation = str(call.config.get("operation") or "").strip().lower()
	label = _("File node {0}").format(call.node_id)
	settings = {
		key: flow_context.interpolate(call.config.get(key), call.context, label)
		for key in ("file", "file_name", "content", "attached_to_doctype", "attached_to_name")
	}
	if operation == "write":
		return NodeResult(output=write(settings, private(call.config), label))
	if operation not in ("read", "delete"):
		raise FileNodeError(_("{0}: the operation must be read, write or delete.").format(label))
	doc = frappe.get_doc("File", file_name_of(settings["file"], label))
	if operation == "delete":
		frappe.delete_doc("File", doc.name)  # Frappe checks delete permission on the File
		return NodeResult(output={"name": doc.name, "deleted": True})
	doc.check_permission("read")
	return NodeResult(output={**describe(doc), "content": read_text(doc, label)})


def private(config: dict) -> int:
	value = config.get("is_private")
	return 1 if value in (None, "") else cint(value)


def max_bytes() -> int:
	from frappe.core.api.file import get_max_file_size

	limit = cint(frappe.conf.get("huf_flow_file_max_bytes")) or DEFAULT_MAX_BYTES
	return min(limit, get_max_file_size())


def write(settings: dict, is_private: int, label: str) -> dict:
	name = str(settings["file_name"] or "").strip()
	if not name or "/" in name or "\\" in name or name.startswith("."):
		raise FileNodeError(_("{0}: give a file name without folders, e.g. report.txt.").format(label))
	content = settings["content"]
	if not isinstance(content, str):
		content = "" if content is None else frappe.as_json(content)
	size = len(content.encode())
	if size > max_bytes():
		raise FileNodeError(
			_("{0}: the content is {1} bytes; at most {2} are allowed.").format(label, size, max_bytes())
		)
	doctype, docname = settings["attached_to_doctype"], settings["attached_to_name"]
	values = {"doctype": "File", "file_name": name, "content": content, "is_private": is_private}
	if doctype or docname:
		if not (doctype and docname):
			raise FileNodeError(
				_("{0}: attach to a document with both its DocType and its name.").format(label)
			)
		if not frappe.has_permission(str(doctype), "write", doc=str(docname)):
			raise frappe.PermissionError(
				_("{0}: {1} may not attach files to {2} {3}.").format(
					label, frappe.session.user, doctype, docname
				)
			)
		values.update(attached_to_doctype=str(doctype), attached_to_name=str(docname))
	doc = frappe.get_doc(values).insert()  # as the acting user: Frappe checks create on File
	return describe(doc)


def file_name_of(value: Any, label: str) -> str:
	"""The name of the File that `value` (a File name or a file URL) names."""
	value = str(value or "").strip()
	if not value:
		raise FileNodeError(_("{0}: name the File (its name or its file URL).").format(label))
	if value.startswith(("/files/", "/private/files/")):
		name = frappe.db.get_value("File", {"file_url": value}, "name")
	else:
		name = value if frappe.db.exists("File", value) else None
	if not name:
		raise frappe.DoesNotExistError(_("{0}: there is no File {1}.").format(label, value))
	return name


def read_text(doc: Any, label: str) -> str:
	if cint(doc.is_folder) or str(doc.file_url or "").startswith(("http://", "https://")):
		raise FileNodeError(_("{0}: {1} is not a file stored on this site.").format(label, doc.name))
	if cint(doc.file_size) > max_bytes():
		raise FileNodeError(
			_("{0}: {1} has {2} bytes; at most {3} are read.").format(
				label, doc.name, doc.file_size, max_bytes()
			)
		)
	content = doc.get_content()
	if isinstance(content, bytes):
		try:
			content = content.decode()
		except UnicodeDecodeError:
			raise FileNodeError(_("{0}: {1} is not a text file.").format(label, doc.name)) from None
	if len(content.encode()) > max_bytes():
		raise FileNodeError(_("{0}: {1} is larger than {2} bytes.").format(label, doc.name, max_bytes()))
	return content


def describe(doc: Any) -> dict:
	return {field: doc.get(field) for field in FILE_FIELDS}


def check(node_id: str, config: dict) -> list[dict]:
	problems = missing_settings(SCHEMAS["file"], config, node_id)
	if bool(config.get("attached_to_doctype")) != bool(config.get("attached_to_name")):
		problems.append(
			problem(node_id, "attached_to_name", "To attach the file, give both the DocType and the name.")
		)
	return problems


EXECUTORS = {"file": file_node}
CHECKS = {"file": check}

WRITE = {"operation": ["write"]}

SCHEMAS = {
	"file": node_schema(
		"File",
		"File",
		"integration",
		"Reads, writes or deletes a text File (private by default) as the run's user.",
		setting(
			"operation", "Operation", "select", "", required=True, options=list(OPERATIONS), default="read"
		),
		setting(
			"file",
			"File",
			"string",
			"The File's name or file URL, e.g. {{ nodes.save.output.name }}.",
			required=True,
			supports_variables=True,
			depends_on={"operation": ["read", "delete"]},
		),
		setting(
			"file_name",
			"File name",
			"string",
			"e.g. report.txt.",
			required=True,
			supports_variables=True,
			depends_on=WRITE,
		),
		setting(
			"content", "Content", "text", "The text to store.", supports_variables=True, depends_on=WRITE
		),
		setting(
			"is_private",
			"Private",
			"boolean",
			"Only permitted users may read it.",
			default=True,
			depends_on=WRITE,
		),
		setting(
			"attached_to_doctype",
			"Attach to DocType",
			"doctype_select",
			"Optional: the run's user needs write on the document.",
			depends_on=WRITE,
		),
		setting(
			"attached_to_name",
			"Attach to document",
			"string",
			"The document's name, e.g. {{ payload.name }}.",
			supports_variables=True,
			depends_on=WRITE,
		),
	),
}
