"""The typed block of each DocType controller, as Frappe's exporter (`frappe.types.exporter`) writes it.

Frappe writes a `# begin: auto-generated types` ... `# end: auto-generated types` block at the top of a
DocType's controller class when the DocType is saved in developer mode (the app's
`export_python_type_annotations` hook). `export()` writes it for every Huf DocType from its JSON with
Frappe's own exporter (`make types` runs it on Frappe Lite: tools/export_types.py); `stale_controllers()`
compares each controller's block with what the exporter writes (huf/huf/doctype/test_controller_types.py).
"""

from __future__ import annotations

import ast
import json
import shutil
import tempfile
import textwrap
from pathlib import Path

import frappe

import huf

DOCTYPES = Path(huf.__file__).parent / "huf" / "doctype"


def schemas() -> list[Path]:
	"""The JSON file of every Huf DocType (`huf/huf/doctype/<folder>/<folder>.json`)."""
	return sorted(path for path in DOCTYPES.glob("*/*.json") if path.stem == path.parent.name)


def doctype_of(schema: Path):
	"""The DocType defined by `schema`, as an unsaved DocType document."""
	return frappe.get_doc(json.loads(schema.read_text()))


def block_of(code: str) -> str | None:
	"""The whole lines from the block's first marker to its last, or None when the code has no block."""
	from frappe.types.exporter import end_block, start_block

	start, end = code.find(start_block), code.find(end_block)
	if start < 0 or end < start:
		return None
	return code[code.rfind("\n", 0, start) + 1 : end + len(end_block)]


def exported_block(doc) -> str | None:
	"""The block Frappe's exporter writes for `doc`: it rewrites a copy of the controller, read back."""
	from frappe.types.exporter import TypeExporter

	exporter = TypeExporter(doc)
	with tempfile.TemporaryDirectory() as folder:
		copy = Path(folder) / exporter.controller_path.name
		shutil.copyfile(exporter.controller_path, copy)
		exporter.controller_path = copy
		exporter.export_types()
		return block_of(copy.read_text())


def controller_path(schema: Path) -> Path:
	return schema.with_suffix(".py")


def version_dependent_fields(doc) -> set[str]:
	"""Fields Frappe 15's exporter types and Frappe 16's does not (virtual fields without options) or
	types otherwise (`not_nullable`, a Frappe 16 property): left out of the comparison on either line."""
	return {
		field.fieldname
		for field in doc.fields
		if (field.get("is_virtual") and not field.get("options")) or field.get("not_nullable")
	}


def block_shape(block: str, leave_out: set[str] = frozenset()) -> str:
	"""The block's code without layout (ruff formats it) and without the annotations of `leave_out`."""
	tree = ast.parse(textwrap.dedent(block))
	for node in ast.walk(tree):
		if isinstance(node, ast.If):
			node.body = [
				statement
				for statement in node.body
				if not (isinstance(statement, ast.AnnAssign) and ast.unparse(statement.target) in leave_out)
			]
	return ast.dump(tree)


def stale_controllers() -> list[str]:
	"""A line for each Huf DocType whose controller's block differs from what Frappe's exporter writes."""
	stale = []
	for schema in schemas():
		doc = doctype_of(schema)
		path = controller_path(schema).relative_to(DOCTYPES.parent.parent.parent)
		current = block_of(controller_path(schema).read_text())
		if current is None:
			stale.append(f"{doc.name} ({path}): no auto-generated types block")
			continue
		leave_out = version_dependent_fields(doc)
		if block_shape(current, leave_out) != block_shape(exported_block(doc), leave_out):
			stale.append(f"{doc.name} ({path}): the block differs from the DocType's fields")
	return stale


def export() -> list[str]:
	"""Write the block of every Huf DocType's controller with Frappe's exporter; the DocTypes written."""
	from frappe.types.exporter import TypeExporter

	written = []
	for schema in schemas():
		doc = doctype_of(schema)
		TypeExporter(doc).export_types()
		written.append(doc.name)
	return written
