"""Huf's own standard tools, registered through Huf's `huf_tools` hook and seeded on install."""

import copy


def _param(
	fieldname: str, type_: str, description: str, required: int = 0, options: str | None = None
) -> dict:
	row = {
		"fieldname": fieldname,
		"label": fieldname.replace("_", " ").title(),
		"type": type_,
		"required": required,
		"description": description,
	}
	if options:
		row["options"] = options
	return row


KEY = _param("key", "string", "Name of the value.", required=1)
FLOW_RUN_ID = _param("flow_run_id", "string", "Id of the flow run.", required=1)

BUILTIN_TOOLS: list[dict] = [
	{
		"tool_name": "ocr_document",
		"tool_type": "Built-in",
		"function_path": "huf.ai.sdk_tools.handle_ocr_document",
		"description": (
			"Extract the text of a document or image: PDF, scanned pages, pictures, Word, Excel, PowerPoint, "
			"text, Markdown, CSV, JSON, XML, log and HTML files. Pass file_id whenever you know it."
		),
		"parameters": [
			_param("file_id", "string", "Name of the File record (preferred)."),
			_param(
				"file_url",
				"string",
				"File URL when no file_id is known, e.g. /files/invoice.pdf or /private/files/invoice.pdf.",
			),
			_param(
				"pages",
				"string",
				"Comma-separated page numbers to read, e.g. 0,1,2. Empty: all pages (PDF only).",
			),
			_param(
				"include_images",
				"boolean",
				"Also return embedded images as base64 (PDF with an OCR endpoint only).",
			),
			_param("model", "string", "Optional OCR or vision model to use instead of the default."),
		],
	},
	{
		"tool_name": "generate_image",
		"tool_type": "Built-in",
		"function_path": "huf.ai.sdk_tools.handle_generate_image",
		"description": "Generate an image from a text description. Use it when the user asks for a picture, illustration or artwork.",
		"parameters": [
			_param(
				"prompt",
				"string",
				"Detailed description of the image: subject, style, colours, composition.",
				required=1,
			),
			_param("size", "string", "Image size, default 1024x1024."),
			_param("quality", "string", "Image quality, default standard."),
			_param("n", "integer", "Number of images, default 1."),
		],
	},
	{
		"tool_name": "generate_audio",
		"tool_type": "Built-in",
		"function_path": "huf.ai.sdk_tools.handle_generate_audio",
		"description": "Turn text into speech. Use it when the user asks for narration, a voice message or audio.",
		"parameters": [
			_param("input", "string", "The text to speak.", required=1),
			_param("voice", "string", "Voice to use. Leave empty to use the agent's configured voice."),
			_param("model", "string", "Speech model. Leave empty to use the agent's configured model."),
			_param("speed", "number", "Speed from 0.25 to 4.0, default 1.0."),
			_param(
				"response_format",
				"string",
				"Audio format, default mp3.",
				options="mp3\nopus\naac\nflac\nwav\npcm",
			),
		],
	},
	{
		"tool_name": "knowledge_search",
		"tool_type": "Knowledge",
		"function_path": "huf.ai.knowledge.tool.knowledge_search",
		"description": "Search the knowledge sources available to this agent and return the most relevant passages.",
		"parameters": [
			_param("query", "string", "What to look for, in plain words.", required=1),
			_param(
				"knowledge_source",
				"string",
				"Search only this source (see get_knowledge_sources). Empty: all sources.",
			),
			_param("top_k", "integer", "Number of passages to return, default 5."),
		],
	},
	{
		"tool_name": "get_knowledge_sources",
		"tool_type": "Knowledge",
		"function_path": "huf.ai.knowledge.tool.get_knowledge_sources",
		"description": "List the knowledge sources available to this agent with their descriptions, to choose one to search.",
		"parameters": [],
	},
	{
		"tool_name": "get_conversation_data",
		"tool_type": "Built-in",
		"function_path": "huf.ai.conversation.conversation_data.get_conversation_data",
		"description": "Read a value you stored earlier in this conversation's memory.",
		"parameters": [KEY],
	},
	{
		"tool_name": "set_conversation_data",
		"tool_type": "Built-in",
		"function_path": "huf.ai.conversation.conversation_data.set_conversation_data",
		"description": "Store a value in this conversation's memory so it is available in later turns.",
		"parameters": [
			KEY,
			_param("value", "string", "The value to store.", required=1),
			_param("description", "string", "What the value means, shown next to it."),
			_param(
				"inject", "boolean", "Whether to show the value in the prompt on every turn (default true)."
			),
		],
	},
	{
		"tool_name": "load_conversation_data",
		"tool_type": "Built-in",
		"function_path": "huf.ai.conversation.conversation_data.load_conversation_data",
		"description": "Load everything stored in this conversation's memory.",
		"parameters": [],
	},
	{
		"tool_name": "run_flow",
		"tool_type": "Flow",
		"function_path": "huf.ai.flow_api.handle_run_flow",
		"description": "Start a flow and return the id of its run.",
		"parameters": [
			_param("flow_id", "string", "Id of the flow to start.", required=1),
			_param("payload", "object", "Input data for the flow."),
		],
	},
	{
		"tool_name": "get_flow_run",
		"tool_type": "Flow",
		"function_path": "huf.ai.flow_api.handle_get_flow_run",
		"description": "Get the status, current step and context of a flow run.",
		"parameters": [FLOW_RUN_ID],
	},
	{
		"tool_name": "resume_flow_run",
		"tool_type": "Flow",
		"function_path": "huf.ai.flow_api.handle_resume_flow_run",
		"description": "Resume a flow run that is waiting for input.",
		"parameters": [
			FLOW_RUN_ID,
			_param("payload", "object", "The input the flow is waiting for."),
		],
	},
	{
		"tool_name": "approve_flow_run",
		"tool_type": "Flow",
		"function_path": "huf.ai.flow_api.handle_approve_flow_run",
		"description": "Approve or reject a flow run that waits for approval.",
		"parameters": [
			FLOW_RUN_ID,
			_param("decision", "string", "The decision.", required=1, options="approved\nrejected"),
			_param("comment", "string", "Optional reason for the decision."),
		],
	},
]


def get_builtin_tools() -> list[dict]:
	"""Definitions of Huf's standard tools (copies, safe to modify)."""
	return copy.deepcopy(BUILTIN_TOOLS)
