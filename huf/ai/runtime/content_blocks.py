"""Content blocks: typed parts of an agent's answer (table, chart, kpi, status_list, markdown).

An agent with **Content Blocks** on is told in its system prompt to write each block as a fenced code
block with the info string `huf-block` holding one JSON object. When the answer is final,
`answer_blocks` splits it into an ordered list of blocks: the text around the fences as markdown
blocks, each fence as its typed block when it is valid JSON that matches its schema and size caps
(`content_block_schemas`), else as a markdown block showing its source, with `fallback` saying why.
The run stores the list with its answer (Agent Message `content_blocks`) and the stream sends one
`content_block` event per block; the answer's text stays as the model wrote it.

Fences rather than a tool the model calls: any OpenAI-compatible model can write them (tool calling
is not needed, nor a second round trip to the model per block), they stream with the text, keep the
blocks in their place between the sentences, and an answer read as plain text still shows the data.
"""

from __future__ import annotations

import json
import re
from typing import Any

import frappe
from frappe import _
from frappe.utils import cint

from huf.ai.runtime.content_block_schemas import (
	BLOCK_TYPES,
	MAX_BLOCK_BYTES,
	MAX_BLOCKS,
	MAX_REASON_CHARS,
	MAX_TEXT_CHARS,
	MAX_TOTAL_BYTES,
	SCHEMAS,
)

FENCE_INFO = "huf-block"
FALLBACK_SOURCE_CHARS = 1000  # of a block shown as text
_OPEN = re.compile(r"^ {0,3}(?P<fence>`{3,}|~{3,})[ \t]*(?P<info>[^`\n]*)$")
_validators: dict[str, Any] = {}


class BlockError(ValueError):
	"""A block cannot be shown as it is; the message says why (shown to the user)."""


# --- the agent's settings ----------------------------------------------------------------------


def parse_types(value: str | None) -> list[str]:
	"""The block types named in Allowed Block Types (commas, spaces or lines between them)."""
	return [name for name in re.split(r"[\s,]+", (value or "").strip().lower()) if name]


def unknown_types(value: str | None) -> list[str]:
	"""The names in `value` that are no block type."""
	return [name for name in parse_types(value) if name not in BLOCK_TYPES]


def enabled_types(agent: Any) -> tuple[str, ...] | None:
	"""The block types `agent` may answer with (markdown always), None when Content Blocks is off."""
	if not cint(agent.get("content_blocks")):
		return None
	chosen = parse_types(agent.get("content_block_types"))
	return tuple(kind for kind in BLOCK_TYPES if not chosen or kind in chosen or kind == "markdown")


def block_instructions(agent: Any) -> str:
	"""The system prompt's part that teaches the model the blocks it may use ("" when off)."""
	types = enabled_types(agent)
	if not types:
		return ""
	lines = [_INSTRUCTION_HEAD.strip()]
	lines += [f"- {kind}: {_TYPE_HELP[kind]}" for kind in types]
	lines.append(_INSTRUCTION_TAIL.strip())
	return "\n".join(lines)


_INSTRUCTION_HEAD = """
## Content blocks
Besides text, you can answer with blocks that the user's chat shows as tables, charts, KPI cards and
status lists. Write each block as a fenced code block whose info string is huf-block, holding one JSON
object, for example:

```huf-block
{"type": "table", "title": "Open orders", "columns": ["Order", "Customer", "Total"], "rows": [["SO-001", "Acme", 1200.5]]}
```

Block types you may use ("?" marks an optional key):
"""

_TYPE_HELP = {
	"table": '{"type": "table", "title"?: text, "columns": [text], "rows": [[cell]]}; every row has one '
	"cell per column; a cell is text, a number, true, false or null; at most 200 rows, 20 columns and "
	"500 characters per cell.",
	"chart": '{"type": "chart", "kind": "bar" | "line" | "pie", "title"?: text, "labels": [text], '
	'"series": [{"name": text, "data": [number]}]}; one number per label; a pie chart has one series '
	"without negative numbers; at most 10 series and 200 labels.",
	"kpi": '{"type": "kpi", "label": text, "value": text or number, "delta"?: text or number, '
	'"unit"?: text}; one key figure, delta is its change (e.g. "+4%" or -12).',
	"status_list": '{"type": "status_list", "title"?: text, "items": [{"label": text, "status": "ok" | '
	'"warning" | "error" | "info" | "pending", "detail"?: text}]}; at most 50 items.',
	"markdown": '{"type": "markdown", "text": text}; usually plain text outside blocks is simpler.',
}

_INSTRUCTION_TAIL = """
Use a block only where the data reads better that way, and write normal text around it. A block must
be strict JSON (double quotes, no comments, no trailing commas); a block that is not, or that exceeds
these limits, is shown to the user as raw text.
"""


# --- the answer ----------------------------------------------------------------------------------


def answer_blocks(agent: Any, text: str | None) -> list[dict] | None:
	"""The blocks of `agent`'s final answer `text`; None when Content Blocks is off or it has no block.

	Never raises: a block that cannot be shown becomes text, and an unexpected error is logged and
	leaves the answer as plain text (the run still succeeds).
	"""
	types = enabled_types(agent)
	if types is None or not text:
		return None
	try:
		return split_answer(text, types)
	except Exception:
		frappe.log_error(title="Content blocks: the answer could not be split into blocks")
		return None


def split_answer(text: str, allowed: tuple[str, ...] = BLOCK_TYPES) -> list[dict] | None:
	"""The ordered blocks of `text` (None when it holds no `huf-block` fence)."""
	if FENCE_INFO not in text.lower():
		return None
	lines = text.split("\n")
	blocks: list[dict] = []
	prose: list[str] = []
	fences = total = 0
	found = False
	at = 0
	while at < len(lines):
		opening = _OPEN.match(lines[at])
		if not opening:
			prose.append(lines[at])
			at += 1
			continue
		end = _closing_line(lines, at, opening["fence"])
		stop = len(lines) if end is None else end + 1
		info = (opening["info"].split() or [""])[0].lower()
		if info != FENCE_INFO or fences >= MAX_BLOCKS:
			prose += lines[at:stop]  # another code block (or one block too many): text as it is
			at = stop
			continue
		found = True
		fences += 1
		blocks += _prose_blocks(prose)
		prose = []
		source = "\n".join(lines[at + 1 : stop - 1 if end is not None else stop])
		block, size = _typed_block(source, end is not None, allowed, total)
		total += size
		blocks.append(block)
		at = stop
	if not found:
		return None
	return blocks + _prose_blocks(prose)


def _closing_line(lines: list[str], opening: int, fence: str) -> int | None:
	closing = re.compile(rf"^ {{0,3}}{re.escape(fence[0])}{{{len(fence)},}}[ \t]*$")
	return next((at for at in range(opening + 1, len(lines)) if closing.match(lines[at])), None)


def _prose_blocks(lines: list[str]) -> list[dict]:
	"""The text between blocks as markdown blocks (split at line ends when longer than a block may be)."""
	text = "\n".join(lines).strip("\n")
	chunks = []
	while len(text) > MAX_TEXT_CHARS:
		cut = text.rfind("\n", 0, MAX_TEXT_CHARS)
		cut = cut if cut > 0 else MAX_TEXT_CHARS
		chunks.append(text[:cut])
		text = text[cut:].lstrip("\n")
	chunks.append(text)
	return [{"type": "markdown", "text": chunk} for chunk in chunks if chunk.strip()]


def _typed_block(source: str, closed: bool, allowed: tuple[str, ...], total: int) -> tuple[dict, int]:
	"""The block written in one fence and its size in bytes (0 when it is shown as text)."""
	kind = None
	try:
		if not closed:
			raise BlockError(_("it is not closed with ```"))
		size = len(source.encode())
		if size > MAX_BLOCK_BYTES:
			raise BlockError(
				_("it is {0} KiB, more than the {1} KiB a block may have").format(
					-(-size // 1024), MAX_BLOCK_BYTES // 1024
				)
			)
		if total + size > MAX_TOTAL_BYTES:
			raise BlockError(_("the answer's blocks would exceed {0} KiB").format(MAX_TOTAL_BYTES // 1024))
		block = loads(source)
		kind = block.get("type") if isinstance(block, dict) else None
		validate_block(block)
		if kind not in allowed:
			raise BlockError(_("blocks of type {0} are not enabled for this agent").format(kind))
	except BlockError as exc:
		return fallback_block(source, str(exc), kind if kind in BLOCK_TYPES else None), 0
	return block, size


def loads(source: str) -> Any:
	"""Strict JSON (no NaN or Infinity); BlockError says where it is broken."""
	try:
		return json.loads(source, parse_constant=_reject_constant)
	except json.JSONDecodeError as exc:
		raise BlockError(
			_("it is not valid JSON ({0} at line {1}, column {2})").format(exc.msg, exc.lineno, exc.colno)
		) from None


def _reject_constant(name: str) -> Any:
	raise BlockError(_("it is not valid JSON ({0} is no JSON number)").format(name))


def fallback_block(source: str, reason: str, kind: str | None = None) -> dict:
	"""A block that cannot be shown, as text: its source in a code block, and why."""
	shown = source.strip("\n")
	if len(shown) > FALLBACK_SOURCE_CHARS:
		shown = shown[:FALLBACK_SOURCE_CHARS] + "\n…"
	longest = max((len(run) for run in re.findall(r"`+", shown)), default=0)
	fence = "`" * max(3, longest + 1)
	text = f"{fence}json\n{shown}\n{fence}" if shown.strip() else _("(an empty block)")
	what = _("The {0} block").format(kind) if kind else _("A block")
	message = _("{0} could not be shown: {1}.").format(what, reason)
	return {"type": "markdown", "text": text, "fallback": message[:MAX_REASON_CHARS]}


def stored_blocks(value: Any) -> list[dict] | None:
	"""The blocks stored with a message (its `content_blocks` JSON), None when it has none."""
	if isinstance(value, str):
		try:
			value = json.loads(value)
		except ValueError:
			return None
	return value if isinstance(value, list) and value else None


# --- one block -----------------------------------------------------------------------------------


def validate_block(block: Any) -> None:
	"""Raise BlockError unless `block` matches its type's schema and shape."""
	if not isinstance(block, dict):
		raise BlockError(_("a block is a JSON object with a type"))
	kind = block.get("type")
	if not isinstance(kind, str) or kind not in SCHEMAS:
		raise BlockError(
			_("{0} is no block type (known: {1})").format(json.dumps(kind)[:40], ", ".join(BLOCK_TYPES))
		)
	errors = sorted(_validator(kind).iter_errors(block), key=lambda error: list(error.absolute_path))
	if errors:
		raise BlockError(_describe(errors[0]))
	_check_shape(block)


def _validator(kind: str) -> Any:
	if kind not in _validators:
		from jsonschema import Draft202012Validator

		_validators[kind] = Draft202012Validator(SCHEMAS[kind])
	return _validators[kind]


def _describe(error: Any) -> str:
	"""A short reason for a schema error (never the whole value, which may be large)."""
	path = _path(error.absolute_path)
	value = error.validator_value
	match error.validator:
		case "maxItems":
			return _("{0} has more than {1} items").format(path, value)
		case "minItems":
			return _("{0} is empty").format(path) if value == 1 else _("{0} has too few items").format(path)
		case "maxLength":
			return _("{0} is longer than {1} characters").format(path, value)
		case "minLength":
			return _("{0} is empty").format(path)
		case "type":
			types = value if isinstance(value, list) else [value]
			return _("{0} must be {1}").format(path, _(" or ").join(types))
		case "enum" | "const":
			options = value if isinstance(value, list) else [value]
			return _("{0} must be {1}").format(path, _(" or ").join(json.dumps(o) for o in options))
		case "anyOf":
			reasons = [e for e in error.context or [] if e.validator != "type"]
			return _describe(reasons[0]) if reasons else _("{0} has a value of the wrong type").format(path)
		case "required":
			missing = [key for key in value if key not in (error.instance or {})]
			return _("{0} lacks {1}").format(path, ", ".join(missing))
		case "additionalProperties":
			extra = sorted(set(error.instance or {}) - set(error.schema.get("properties") or {}))
			return _("{0} has unknown keys: {1}").format(path, ", ".join(extra)[:100])
	return error.message[:MAX_REASON_CHARS]


def _path(parts: Any) -> str:
	text = ""
	for part in parts:
		text += f"[{part + 1}]" if isinstance(part, int) else (f".{part}" if text else str(part))
	return text or _("the block")


def _check_shape(block: dict) -> None:
	"""What JSON Schema cannot say: cells per row, values per label, a pie's one series."""
	if block["type"] == "table":
		width = len(block["columns"])
		for number, row in enumerate(block["rows"], 1):
			if len(row) != width:
				raise BlockError(
					_("row {0} has {1} cells, the table has {2} columns").format(number, len(row), width)
				)
	elif block["type"] == "chart":
		count = len(block["labels"])
		for number, series in enumerate(block["series"], 1):
			if len(series["data"]) != count:
				name = series.get("name") or str(number)
				raise BlockError(
					_("series {0} has {1} values for {2} labels").format(name, len(series["data"]), count)
				)
		if block["kind"] == "pie":
			if len(block["series"]) != 1:
				raise BlockError(_("a pie chart has exactly one series"))
			if any(value is not None and value < 0 for value in block["series"][0]["data"]):
				raise BlockError(_("a pie chart cannot show negative values"))
