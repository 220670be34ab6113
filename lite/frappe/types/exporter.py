"""`frappe.types.exporter`: writes the typed block of a DocType's controller class.

`TypeExporter(doc).export_types()` annotates the fields of `doc` (a DocType document) inside its
controller class (`<module>/doctype/<folder>/<folder>.py`) so type checkers know each attribute:

	class SalesNote(Document):
		# begin: auto-generated types
		# This code is auto-generated. Do not modify anything in this block.

		from typing import TYPE_CHECKING

		if TYPE_CHECKING:
			from frappe.types import DF

			title: DF.Data
		# end: auto-generated types

A block already in the file is replaced; otherwise the block goes right below the `class` line. The
file is written only when the result still parses as Python. Frappe runs it when a DocType is saved in
developer mode (the `export_python_type_annotations` hook).
"""

import ast
import json
import tokenize
from keyword import iskeyword
from pathlib import Path

import frappe
from frappe import scrub
from frappe.types import DF

start_block = "# begin: auto-generated types"
end_block = "# end: auto-generated types"

_NOTICE = "# This code is auto-generated. Do not modify anything in this block."

# Fieldtypes whose value is never None, mandatory or not: numbers and checks (0), a Select (its first
# option or ""), child tables ([]).
_NEVER_NONE = frozenset(
	{"Check", "Currency", "Float", "Int", "Percent", "Rating", "Select", "Table", "Table MultiSelect"}
)
_CHILD_TABLES = ("Table", "Table MultiSelect")

# The fields every child row has besides its DocType's own.
_ROW_FIELDS = ("parent", "parentfield", "parenttype")


class TypeExporter:
	"""The typed block of `doc` (a DocType document) and its place in the DocType's controller.

	`controller_path` is the controller file (a caller may point it elsewhere before exporting);
	`indent` is the file's indentation, found again on each export; `field_types` maps each field to
	its annotation and `imports` holds the block's import lines, both filled by `export_types()`.
	"""

	def __init__(self, doc):
		self.doc = doc
		self.doctype = doc.name
		self.field_types = {}
		self.imports = {"from frappe.types import DF"}
		self.indent = "\t"
		folder = scrub(self.doctype)
		self.controller_path = Path(frappe.get_module_path(doc.module)) / "doctype" / folder / f"{folder}.py"

	def export_types(self):
		"""Write the block into the controller, in place of the one there or below the class line."""
		self.indent = self._indentation_of_controller()
		block = self._block()
		code = _insert_block(self.controller_path.read_text(), block, self.doctype.replace(" ", ""))
		if _is_python(code):
			self.controller_path.write_text(code)

	def _indentation_of_controller(self) -> str:
		"""A tab when the indentation of the controller's first indented line has a tab, else four spaces; the
		current indentation when no line of the file is indented."""
		with self.controller_path.open() as source:
			for token in tokenize.generate_tokens(source.readline):
				if token.type == tokenize.INDENT:
					return "\t" if "\t" in token.string else "    "
		return self.indent

	def _block(self) -> str:
		"""The block's text, indented one level (the class body), without a newline at either end.

		Imports and annotations are sorted line by line; keyword field names and virtual fields without
		options are left out, as are fieldtypes `DF` has no alias for."""
		for field in self.doc.fields:
			if iskeyword(field.fieldname) or (field.is_virtual and not field.options):
				continue
			annotation = self._annotation(field)
			if annotation:
				self.field_types[field.fieldname] = annotation
		if self.doc.istable:
			self.field_types.update(dict.fromkeys(_ROW_FIELDS, "DF.Data"))
		if self.doc.autoname == "autoincrement":
			self.field_types["name"] = "DF.Int | None"

		annotations = sorted(f"{name}: {annotation}" for name, annotation in self.field_types.items())
		lines = [start_block, _NOTICE, "", "from typing import TYPE_CHECKING", "", "if TYPE_CHECKING:"]
		lines.extend(self.indent + line for line in sorted(self.imports))
		lines.append("")
		lines.extend(self.indent + line for line in annotations)
		if not annotations:
			lines.append("")  # a DocType without typed fields still gets its (empty) line of fields
		lines.append(end_block)
		return "\n".join(self.indent + line if line else line for line in lines)

	def _annotation(self, field) -> str | None:
		"""`DF.<alias>` of the field's type, with the row class of a child table or the options of a
		Select in brackets, and `| None` when the value may be empty; None when `DF` has no alias."""
		alias = field.fieldtype.replace(" ", "")
		if alias == "Select":
			annotation = "DF.Literal" + _options_of(field)
		elif getattr(DF, alias, None):
			annotation = f"DF.{alias}"
			if field.fieldtype in _CHILD_TABLES and field.options:
				annotation += f"[{self._import_row_class(field.options)}]"
		else:
			return None
		if field.fieldtype not in _NEVER_NONE and not field.not_nullable and not field.reqd:
			annotation += " | None"
		return annotation

	def _import_row_class(self, doctype: str) -> str:
		"""The name of `doctype`'s controller class, adding the line that imports it to the block."""
		from frappe.model.base_document import get_controller

		row_class = get_controller(doctype)
		self.imports.add(f"from {row_class.__module__} import {row_class.__name__}")
		return row_class.__name__


def _options_of(select) -> str:
	"""The Select's options, one per line in its `options`, as a JSON list (`[None]` when it has none:
	its options are set at run time)."""
	if not select.options:
		return "[None]"
	return json.dumps([option.strip() for option in select.options.split("\n")])


def _insert_block(code: str, block: str, class_name: str) -> str:
	"""`code` with `block` replacing the one between the markers (at the block's indentation), else
	inserted below the first `class <class_name>(` line, with one blank line after it; `code` unchanged
	when it has neither."""
	opening, closing = block[: block.index("\n")], block[block.rindex("\n") + 1 :]
	if opening in code and closing in code:
		before = code[: code.find(opening)]
		after = code[code.find(closing) + len(closing) :]
	else:
		class_line = code.find(f"class {class_name}(")
		if class_line < 0:
			return code
		line_end = code.find("\n", class_line)
		cut = len(code) if line_end < 0 else line_end + 1
		before, after = code[:cut], code[cut:]
	return before + block + "\n\n" + after.lstrip("\n")


def _is_python(code: str) -> bool:
	"""Whether `code` parses; if not, the user is told the type hints were not exported."""
	try:
		ast.parse(code)
	except Exception:
		frappe.msgprint(frappe._("Failed to export python type hints"), alert=True)
		return False
	return True
