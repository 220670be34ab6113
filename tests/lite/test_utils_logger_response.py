"""frappe.logger writes the site's logs/<module>.log; json_handler encodes Frappe's value types."""

import datetime
import json
import os
import uuid
from decimal import Decimal

import frappe
from frappe.utils.response import json_handler


def test_logger_writes_to_site_log_file():
	logger = frappe.logger("lite_logger_test")
	logger.info("agent started %s", "run-42")
	for handler in logger.handlers:
		handler.flush()
	path = frappe.get_site_path("logs", "lite_logger_test.log")
	assert os.path.exists(path)
	with open(path) as f:
		content = f.read()
	assert "agent started run-42" in content
	assert "INFO" in content
	assert frappe.logger("lite_logger_test") is logger


def test_logger_rotates():
	logger = frappe.logger("lite_rotation_test", max_size=200, file_count=2)
	for i in range(40):
		logger.warning("line %s with some padding to fill the file quickly", i)
	for handler in logger.handlers:
		handler.flush()
	logs = frappe.get_site_path("logs")
	rotated = [name for name in os.listdir(logs) if name.startswith("lite_rotation_test.log")]
	assert "lite_rotation_test.log.1" in rotated
	assert len(rotated) <= 3


def test_logger_module_cannot_escape_logs_folder():
	logger = frappe.logger("../escape_attempt")
	logger.warning("x")
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
	assert out["bytes"] == "café"
	assert out["uuid"] == "00000000-0000-0000-0000-000000000001"
	assert out["doc"]["description"] == "encode me"
	assert out["doc"]["doctype"] == "ToDo"
	assert out["dict"] == {"a": 1}
	assert json.loads(frappe.as_json({"when": datetime.date(2024, 5, 6)})) == {"when": "2024-05-06"}


def test_json_handler_refuses_unknown_objects():
	import pytest

	with pytest.raises(TypeError):
		json.dumps({"x": object()}, default=json_handler)
