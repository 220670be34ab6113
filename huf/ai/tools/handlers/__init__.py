"""Agent Tool Function types: what each type does, as the user the run belongs to.

Every handler is `handler(spec, args, context) -> result`; `huf.ai.tools.executor` has already
cleaned and coerced `args` and dispatches by type through `HANDLERS`.

| module | tool types |
| --- | --- |
| `documents` | Get/Create/Update/Delete/Submit/Cancel Document(s), Get List, Get/Set Value, Get Amended Document, Attach File to Document |
| `reports` | Get Report Result |
| `http` | GET, POST (through the SSRF-safe client) |
| `media` | Speech to Text, and the built-in media tools' entry points |
| `agents` | Run Agent (sub-agent runs) |
| `integrations` | Custom Function, App Provided (functions of installed apps) |
| `client_side` | Client Side outside a run (in a run the browser answers: `huf.ai.runtime.client_calls`) |
"""

from collections.abc import Callable
from typing import Any

from huf.ai.runtime.tools import ToolContext
from huf.ai.tools.handlers.agents import run_agent
from huf.ai.tools.handlers.client_side import client_side
from huf.ai.tools.handlers.documents import (
	attach_file_to_document,
	cancel_document,
	create_document,
	create_documents,
	delete_document,
	delete_documents,
	get_amended_document,
	get_document,
	get_documents,
	get_list,
	get_value,
	set_value,
	submit_document,
	update_document,
	update_documents,
)
from huf.ai.tools.handlers.http import http_request
from huf.ai.tools.handlers.integrations import app_provided, custom_function
from huf.ai.tools.handlers.media import speech_to_text
from huf.ai.tools.handlers.reports import get_report_result
from huf.ai.tools.spec import ToolSpec

HANDLERS: dict[str, Callable[[ToolSpec, dict, ToolContext], Any]] = {
	"Get Document": get_document,
	"Get Multiple Documents": get_documents,
	"Get List": get_list,
	"Create Document": create_document,
	"Create Multiple Documents": create_documents,
	"Update Document": update_document,
	"Update Multiple Documents": update_documents,
	"Delete Document": delete_document,
	"Delete Multiple Documents": delete_documents,
	"Submit Document": submit_document,
	"Cancel Document": cancel_document,
	"Get Amended Document": get_amended_document,
	"Custom Function": custom_function,
	"App Provided": app_provided,
	"Attach File to Document": attach_file_to_document,
	"Get Report Result": get_report_result,
	"Get Value": get_value,
	"Set Value": set_value,
	"GET": http_request,
	"POST": http_request,
	"Run Agent": run_agent,
	"Speech to Text": speech_to_text,
	"Client Side": client_side,
}
