"""frappe.logger writes the site's logs/<module>.log; json_handler encodes Frappe's value types."""

import datetime
import json
import os
import uuid
from decimal import Decimal

import frappe
from frappe.utils.response import json_handler


def _read_log(logger, module: str) -> str:
	for handler in logger.handlers:
		handler.flush()
	path = frappe.get_site_path("logs", f"{module}.log")
	if not os.path.exists(path):
		return ""
	with open(path) as f:
		return f.read()


def test_logger_writes_errors_to_site_log_file():
	logger = frappe.logger("lite_logger_test")
	logger.error("agent failed %s", "run-42")
	content = _read_log(logger, "lite_logger_test")
	assert "agent failed run-42" in content
	assert "ERROR lite_logger_test" in content
	assert frappe.logger("lite_logger_test") is logger


def test_logger_records_below_error_only_when_asked():
	# as Frappe outside its development server: ERROR and above, unless frappe.log_level says otherwise
	from frappe.utils.logger import set_log_level

	quiet = frappe.logger("lite_level_test")
	quiet.info("not recorded")
	quiet.warning("not recorded either")
	assert "not recorded" not in _read_log(quiet, "lite_level_test")
	set_log_level("INFO")
	try:
		verbose = frappe.logger("lite_level_test")
		verbose.info("recorded at info")
		assert "INFO lite_level_test recorded at info" in _read_log(verbose, "lite_level_test")
	finally:
		frappe.log_level = None
		frappe.loggers = {}


def test_logger_rotates():
	logger = frappe.logger("lite_rotation_test", max_size=200, file_count=2)
	for i in range(40):
		logger.error("line %s with some padding to fill the file quickly", i)
	for handler in logger.handlers:
		handler.flush()
	logs = frappe.get_site_path("logs")
	rotated = [name for name in os.listdir(logs) if name.startswith("lite_rotation_test.log")]
	assert "lite_rotation_test.log.1" in rotated
	assert len(rotated) <= 3


def test_logger_module_cannot_escape_logs_folder():
	logger = frappe.logger("../escape_attempt")
	logger.error("x")
	for handler in logger.handlers:
		handler.flush()
	assert not os.path.exists(frappe.get_site_path("escape_attempt.log"))


def test_json_handler_types():
	from frappe.model.base_document import BaseDocument

	doc = frappe.get_doc({"doctype": "ToDo", "description": "encode me"})
	assert isinstance(doc, BaseDocument)
	value = {
		"dt": datetime.datetime(2024, 1, 2, 3, 4, 5, 6),
		"d": datetime.date(2024, 1, 2),
		"t": datetime.time(3, 4, 5),
		"td": datetime.timedelta(hours=1, minutes=2),
		"dec": Decimal("1.25"),
		"set": {1},
		"bytes": b"caf\xc3\xa9",
		"uuid": uuid.UUID(int=1),
		"doc": doc,
		"dict": frappe._dict(a=1),
	}
	out = json.loads(json.dumps(value, default=json_handler))
	assert out["dt"] == "2024-01-02 03:04:05.000006"
	assert out["d"] == "2024-01-02"
	assert out["t"] == "03:04:05"
	assert out["td"] == "1:02:00"
	assert out["dec"] == 1.25
	assert out["set"] == [1]
	assert out["bytes"] == list(b"caf\xc3\xa9")  # as Frappe: bytes are an iterable of ints
	assert out["uuid"] == "00000000-0000-0000-0000-000000000001"
	assert out["doc"]["description"] == "encode me"
	assert out["doc"]["doctype"] == "ToDo"
	assert out["dict"] == {"a": 1}
	assert json.loads(frappe.as_json({"when": datetime.date(2024, 5, 6)})) == {"when": "2024-05-06"}


def test_json_handler_refuses_unknown_objects():
	import pytest

	with pytest.raises(TypeError):
		json.dumps({"x": object()}, default=json_handler)
