"""The JSON Schemas of content blocks (docs/chat-and-stream.md, "Content blocks") and their size caps.

One schema per block type; `huf.ai.runtime.content_blocks` validates against them and adds the checks
JSON Schema cannot say (a table row has one cell per column, a series one number per label).
"""

MAX_BLOCKS = 20  # typed blocks in one answer; more are shown as text
MAX_BLOCK_BYTES = 64 * 1024  # the JSON of one block as the model wrote it
MAX_TOTAL_BYTES = 256 * 1024  # all typed blocks of one answer
MAX_ROWS = 200
MAX_COLUMNS = 20
MAX_CELL_CHARS = 500
MAX_LABEL_CHARS = 200
MAX_SERIES = 10
MAX_POINTS = 200
MAX_ITEMS = 50
MAX_TEXT_CHARS = 20_000
MAX_VALUE_CHARS = 100
MAX_UNIT_CHARS = 20
MAX_STATUS_CHARS = 40
MAX_REASON_CHARS = 300

CHART_KINDS = ("bar", "line", "pie")

_LABEL = {"type": "string", "maxLength": MAX_LABEL_CHARS}
_TITLE = {"type": "string", "maxLength": MAX_LABEL_CHARS}
_CELL = {
	"anyOf": [
		{"type": "string", "maxLength": MAX_CELL_CHARS},
		{"type": "number"},
		{"type": "boolean"},
		{"type": "null"},
	]
}


def _block(kind: str, required: list[str], properties: dict) -> dict:
	return {
		"$schema": "https://json-schema.org/draft/2020-12/schema",
		"title": kind,
		"type": "object",
		"additionalProperties": False,
		"required": ["type", *required],
		"properties": {"type": {"const": kind}, **properties},
	}


SCHEMAS: dict[str, dict] = {
	"table": _block(
		"table",
		["columns", "rows"],
		{
			"title": _TITLE,
			"columns": {"type": "array", "minItems": 1, "maxItems": MAX_COLUMNS, "items": _LABEL},
			"rows": {
				"type": "array",
				"maxItems": MAX_ROWS,
				"items": {"type": "array", "maxItems": MAX_COLUMNS, "items": _CELL},
			},
		},
	),
	"chart": _block(
		"chart",
		["kind", "labels", "series"],
		{
			"kind": {"enum": list(CHART_KINDS)},
			"title": _TITLE,
			"labels": {"type": "array", "minItems": 1, "maxItems": MAX_POINTS, "items": _LABEL},
			"series": {
				"type": "array",
				"minItems": 1,
				"maxItems": MAX_SERIES,
				"items": {
					"type": "object",
					"additionalProperties": False,
					"required": ["data"],
					"properties": {
						"name": _LABEL,
						"data": {
							"type": "array",
							"maxItems": MAX_POINTS,
							"items": {"type": ["number", "null"]},
						},
					},
				},
			},
		},
	),
	"kpi": _block(
		"kpi",
		["label", "value"],
		{
			"label": _LABEL,
			"value": {"type": ["string", "number"], "maxLength": MAX_VALUE_CHARS},
			"delta": {"type": ["string", "number", "null"], "maxLength": MAX_VALUE_CHARS},
			"unit": {"type": "string", "maxLength": MAX_UNIT_CHARS},
		},
	),
	"status_list": _block(
		"status_list",
		["items"],
		{
			"title": _TITLE,
			"items": {
				"type": "array",
				"minItems": 1,
				"maxItems": MAX_ITEMS,
				"items": {
					"type": "object",
					"additionalProperties": False,
					"required": ["label", "status"],
					"properties": {
						"label": _LABEL,
						"status": {"type": "string", "minLength": 1, "maxLength": MAX_STATUS_CHARS},
						"detail": {"type": "string", "maxLength": MAX_CELL_CHARS},
					},
				},
			},
		},
	),
	"markdown": _block(
		"markdown",
		["text"],
		{
			"text": {"type": "string", "minLength": 1, "maxLength": MAX_TEXT_CHARS},
			# set by Huf on a block shown as text: why the block the model wrote could not be shown
			"fallback": {"type": "string", "maxLength": MAX_REASON_CHARS},
		},
	),
}

BLOCK_TYPES = tuple(SCHEMAS)
