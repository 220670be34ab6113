"""Frappe Lite offers only names real Frappe has, with compatible parameters (read from Frappe's source).

Runs when real Frappe's source is available: `$FRAPPE_SOURCE` (the folder holding the `frappe` package)
or /tmp/fsrc/frappe. Lite's own parts live in the `frappe_lite` package, which is not checked; inside
`frappe`, Lite-only helpers have underscore names.
"""

from __future__ import annotations

import pytest

from tests.lite.api_surface import LITE_ROOT, differences, real_frappe_root

# Names Lite still offers although real Frappe lacks them, each with the reason it stays for now
# (a line of the report, e.g. "frappe.x.y: function missing on Frappe"). Keep it empty.
ALLOWED: set[str] = set()

REAL_ROOT = real_frappe_root()


@pytest.mark.skipif(REAL_ROOT is None, reason="real Frappe's source not found (set FRAPPE_SOURCE)")
def test_lite_offers_only_names_and_signatures_real_frappe_has():
	found = differences(LITE_ROOT, REAL_ROOT)
	unexpected = [line for line in found if line not in ALLOWED]
	assert not unexpected, "Frappe Lite differs from real Frappe:\n" + "\n".join(unexpected)
	stale = sorted(ALLOWED - set(found))
	assert not stale, "no longer needed in ALLOWED:\n" + "\n".join(stale)


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
