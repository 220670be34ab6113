"""Frappe Lite offers only names real Frappe has, with compatible parameters (read from Frappe's source).

Lite follows Frappe 16 (`$FRAPPE_SOURCE`, the folder holding the `frappe` package, or /tmp/fsrc/frappe):
no difference at all. Against Frappe 15 (`$FRAPPE_15_SOURCE`) Lite may differ only where 16 does, in names
Huf does not use (or uses behind an ImportError fallback), so what runs on Lite runs on 15 too. Lite's own
parts live in the `frappe_lite` package, which is not checked; inside `frappe`, Lite-only helpers have
underscore names.
"""

from __future__ import annotations

import pytest

from huf.tests.test_frappe_api_surface import Use, collect_uses
from tests.lite.api_surface import LITE_ROOT, differences, real_frappe_root

# Names Lite still offers although real Frappe lacks them, each with the reason it stays for now
# (a line of the report, e.g. "frappe.x.y: function missing on Frappe"). Keep it empty.
ALLOWED: set[str] = set()

REAL_ROOT = real_frappe_root()
FRAPPE_15_ROOT = real_frappe_root("FRAPPE_15_SOURCE")


@pytest.mark.skipif(REAL_ROOT is None, reason="real Frappe's source not found (set FRAPPE_SOURCE)")
def test_lite_offers_only_names_and_signatures_real_frappe_has():
	found = differences(LITE_ROOT, REAL_ROOT)
	unexpected = [line for line in found if line not in ALLOWED]
	assert not unexpected, "Frappe Lite differs from real Frappe:\n" + "\n".join(unexpected)
	stale = sorted(ALLOWED - set(found))
	assert not stale, "no longer needed in ALLOWED:\n" + "\n".join(stale)


def uses(found: list[Use], difference: str) -> bool:
	"""Whether Huf uses what a line of api_surface.differences() names: a missing name (a module's, or a
	method of frappe.db / frappe.cache), or a parameter Huf passes by keyword."""
	subject, _, problem = difference.partition(": ")
	if subject.endswith("()"):
		words = problem.split()
		if words[0] not in ("parameter", "keyword") or "does not exist" not in problem:
			return False  # positions and defaults: Huf passes Frappe's parameters by keyword
		function = subject[:-2].rsplit(".", 1)[-1]
		return any(
			u.kind == "call" and u.target.endswith("." + function) and words[1] in u.keywords for u in found
		)
	if "missing" not in problem:
		return False
	parent, _, last = subject.rpartition(".")
	if parent.rsplit(".", 1)[-1][:1].isupper():  # a method: Huf reaches it as frappe.db.x / frappe.cache.x
		return any(
			u.target.split(".")[1:2] in (["db"], ["cache"]) and u.target.endswith("." + last) for u in found
		)
	return any(
		f"{u.target}.{u.name}" == subject
		if u.kind == "import-from"
		else u.target == subject or u.target.startswith(subject + ".")
		for u in found
	)


@pytest.mark.skipif(FRAPPE_15_ROOT is None, reason="Frappe 15's source not found (set FRAPPE_15_SOURCE)")
def test_huf_uses_no_name_frappe_15_lacks():
	found = collect_uses()
	used = [line for line in differences(LITE_ROOT, FRAPPE_15_ROOT) if uses(found, line)]
	assert not used, "Huf uses what Frappe 15 lacks (huf/frappe_compat.py):\n" + "\n".join(used)


def test_a_use_of_a_missing_name_is_found(tmp_path):
	source = tmp_path / "mod.py"
	source.write_text(
		"import frappe\nfrom frappe.tests.utils import make_test_records\n"
		"frappe.override_whitelisted_method('x')\nfrappe.cache.get_value('k', use_local_cache=False)\n"
		"frappe.db.estimate_count('ToDo')\n"
		"try:\n\tfrom frappe.tests import UnitTestCase\nexcept ImportError:\n\tUnitTestCase = object\n"
	)
	found = collect_uses([str(source)])
	for line in (
		"frappe.override_whitelisted_method: function missing on Frappe",
		"frappe.tests.utils.make_test_records: name missing on Frappe",
		"frappe.utils.redis_wrapper.RedisWrapper.get_value(): keyword use_local_cache does not exist on Frappe",
		"frappe.database.database.Database.estimate_count: function missing on Frappe",
	):
		assert uses(found, line), line
	assert not uses(found, "frappe.tests.UnitTestCase: name missing on Frappe")
	assert not uses(found, "frappe.utils.bold: name missing on Frappe")


def test_checker_catches_what_it_should(tmp_path):
	"""The comparison itself: a Lite-only name, an extra parameter, a moved positional parameter."""
	real, lite = tmp_path / "real", tmp_path / "lite"
	for root in (real, lite):
		(root / "frappe").mkdir(parents=True)
	(real / "frappe" / "__init__.py").write_text(
		"def get_doc(*args, **kwargs):\n\tpass\n\n\n"
		"def init(site, sites_path='.', new_site=False, force=False):\n\tpass\n\n\n"
		"class init_site:\n\tdef __init__(self, site=None):\n\t\tpass\n"
	)
	(lite / "frappe" / "__init__.py").write_text(
		"def get_doc(*args, **kwargs):\n\tpass\n\n\n"
		"def init(site, new_site=False, sites_path=None, force=False):\n\tpass\n\n\n"
		"class init_site:\n\tdef __init__(self, site=None, user='Administrator'):\n\t\tpass\n\n\n"
		"def get_fullname(user=None):\n\tpass\n\n\n"
		"def _private_helper():\n\tpass\n"
	)
	found = differences(lite, real)
	assert "frappe.get_fullname: function missing on Frappe" in found
	assert "frappe.init(): new_site at position 1 on Lite, 2 on Frappe" in found
	assert "frappe.init_site.__init__(): parameter user does not exist on Frappe" in found
	assert not [line for line in found if "get_doc" in line or "_private_helper" in line]
