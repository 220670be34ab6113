"""Each DocType controller declares its DocType's fields as Frappe's type exporter writes them."""

from huf.tests.support.case import HufTestCase
from huf.tests.support.controller_types import stale_controllers

REGENERATE = (
	"Regenerate the blocks: `make types` (Frappe Lite); on a bench `bench --site SITE execute "
	"huf.tests.support.controller_types.export`, then `ruff check --fix --select I huf/huf/doctype` and "
	"`ruff format huf/huf/doctype` (docs/testing.md, Typed controllers)."
)


class TestControllerTypes(HufTestCase):
	def test_every_controllers_types_block_matches_its_doctype(self):
		stale = stale_controllers()
		self.assertFalse(stale, "\n".join([*stale, REGENERATE]))
