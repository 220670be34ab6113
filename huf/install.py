"""Install and migrate hooks: seed what Huf needs, idempotently (running twice changes nothing)."""

import importlib.util
import os
import subprocess
import sys
from importlib import metadata

import frappe

from huf.huf.builtin_tools import get_builtin_tools
from huf.huf.capabilities import CAPABILITIES, DEFAULT_HUF_ROLES
from huf.huf.doctype.agent_settings.agent_settings import sole_name
from huf.huf.indexes import add_indexes

ROLES = ("Huf Manager", "Huf User", "Huf Viewer")
TOOL_TYPES = (
	"Document Operations",
	"HTTP",
	"Custom",
	"App Provided",
	"Built-in",
	"MCP",
	"Knowledge",
	"Flow",
	"Agent",
	"Client Side",
)


def after_install() -> None:
	"""Seed roles, tool types, built-in tools, Huf Roles and settings on a new site."""
	seed()
	add_indexes()
	check_litellm()


def after_migrate() -> None:
	"""Re-seed after every migrate so new defaults reach existing sites (never duplicates); add missing indexes."""
	seed()
	add_indexes()
	from huf.ai.app_seeding.seeder import log_errors, seed_apps
	from huf.ai.tools.app_sync import sync_tools_after_migrate

	sync_tools_after_migrate()  # huf_tools of the apps whose hooks.py changed
	try:
		log_errors(seed_apps(), "Huf app seeding after migrate")  # the apps' huf/ seed folders
	except Exception:
		frappe.log_error(title="Huf app seeding failed")  # a failed seed never fails the migrate
	check_litellm()


def after_app_install(app: str) -> None:
	"""Another app (or Huf) was installed: sync its huf_tools, then apply its seeds (tools before agents)."""
	from huf.ai.app_seeding.seeder import log_errors, seed_app
	from huf.ai.tools.app_sync import sync_tools

	sync_tools(apps=[app], force=True)
	log_errors(seed_app(app), f"Huf app seeding of {app}")


def after_app_uninstall(app: str) -> None:
	"""An app was uninstalled: its App Provided tools go (the records it seeded stay, they are the site's)."""
	from huf.ai.tools.app_sync import forget_app

	forget_app(app)


def seed() -> None:
	"""Everything Huf needs to exist; safe to run any number of times."""
	create_roles()
	create_tool_types()
	sync_builtin_tools()
	create_huf_roles()
	set_agent_settings_defaults()
	seed_integration_services()
	seed_example_flows()


def seed_example_flows() -> None:
	"""The example flows, each once per site (a deleted or edited one is left as it is); a failure is
	logged, never fails the install or migrate."""
	from huf.ai.flows.examples import seed_examples

	frappe.db.savepoint("huf_example_flows")
	try:
		seed_examples()
	except Exception:
		frappe.db.rollback(save_point="huf_example_flows")
		frappe.log_error(title="Huf example flows could not be seeded")


def seed_integration_services() -> None:
	from huf.ai.integrations.catalog import seed_services

	seed_services()


def create_roles() -> None:
	for role in ROLES:
		if not frappe.db.exists("Role", role):
			frappe.get_doc({"doctype": "Role", "role_name": role, "desk_access": 1}).insert(
				ignore_permissions=True
			)


def create_tool_types() -> None:
	for name in TOOL_TYPES:
		if not frappe.db.exists("Agent Tool Type", name):
			frappe.get_doc({"doctype": "Agent Tool Type", "name1": name}).insert(ignore_permissions=True)


def sync_builtin_tools() -> None:
	"""Create or refresh the standard tools so agents can link them (as the huf_tools sync does)."""
	from huf.ai.tools.app_sync import upsert_tool_doc

	for definition in get_builtin_tools():
		name = definition["tool_name"]
		if frappe.db.exists("Agent Tool Function", name):
			if frappe.db.get_value("Agent Tool Function", name, "provider_app") != "huf":
				continue  # a user's own tool of the same name wins
		try:
			upsert_tool_doc(definition, "huf")
		except frappe.DuplicateEntryError:
			continue  # a standard tool changed into another type stays as its owner made it


def create_huf_roles() -> None:
	"""Default Huf Roles; existing ones are left as the administrator configured them."""
	for role_name, spec in DEFAULT_HUF_ROLES.items():
		if frappe.db.exists("Huf Role", role_name):
			continue
		doc = frappe.new_doc("Huf Role")
		doc.update(
			{
				"role_name": role_name,
				"role_description": spec["role_description"],
				"frappe_role": spec["frappe_role"],
				"role_weight": spec["role_weight"],
				"is_system_role": 1,
			}
		)
		for capability in spec["capabilities"]:
			doc.append("permissions", {"capability": capability, "label": CAPABILITIES[capability]})
		doc.insert(ignore_permissions=True)


def set_agent_settings_defaults() -> None:
	"""Give empty Agent Settings the first provider and model when there is exactly one of each."""
	settings = frappe.get_single("Agent Settings")
	changed = False
	if not settings.default_provider:
		provider = sole_name("AI Provider", ignore_permissions=True)
		if provider:
			settings.default_provider, changed = provider, True
	if settings.default_provider and not settings.default_model:
		model = sole_name("AI Model", {"provider": settings.default_provider}, ignore_permissions=True)
		if model:
			settings.default_model, changed = model, True
	if changed:
		settings.save(ignore_permissions=True)


# --- LiteLLM ---------------------------------------------------------------------------------------

LITELLM_GUIDANCE = """Huf: LiteLLM {problem}. Agents cannot call a model until it imports.
  Install it into the bench's Python:  ./env/bin/pip install "litellm>=1.60"  (standalone: pip install huf)
  LiteLLM downloads its model price map on import; offline servers should set
  LITELLM_LOCAL_MODEL_COST_MAP=True for the web and worker processes (Huf sets it for its own imports)."""


def check_litellm(timeout: int = 180) -> bool:
	"""Tell the admin, with the fix, when LiteLLM is missing or does not import; never fails the install.

	The import is tried in a subprocess (it takes seconds), once per LiteLLM version and Python
	environment (remembered in `<env>/.huf-litellm-ok`).
	"""
	if importlib.util.find_spec("litellm") is None:
		print(LITELLM_GUIDANCE.format(problem="is not installed"))
		return False
	checked = f"{sys.executable} litellm {metadata.version('litellm')}"
	marker = os.path.join(sys.prefix, ".huf-litellm-ok")
	try:
		with open(marker) as f:
			if f.read() == checked:
				return True
	except OSError:
		pass
	env = {**os.environ, "LITELLM_LOCAL_MODEL_COST_MAP": "True"}
	try:
		result = subprocess.run(
			[sys.executable, "-c", "import litellm"], env=env, capture_output=True, text=True, timeout=timeout
		)
	except subprocess.TimeoutExpired:
		print(LITELLM_GUIDANCE.format(problem=f"did not finish importing within {timeout} s"))
		return False
	if result.returncode != 0:
		error = (result.stderr.strip().splitlines() or ["unknown error"])[-1]
		print(LITELLM_GUIDANCE.format(problem=f"fails to import ({error})"))
		return False
	try:
		with open(marker, "w") as f:
			f.write(checked)
	except OSError:
		pass  # a read-only environment: checked again next time
	return True
