"""Versioned prompt templates (Agent Prompt, Agent Summary Prompt): lineages, versions, slugs.

All versions of one prompt share a `lineage` and a `slug`; each new version (created with
`previous_version` set) gets the next version number and becomes the only `is_latest` of its lineage.
"""

import re

import frappe
from frappe import _
from frappe.model.document import Document
from frappe.utils import cint

from huf.huf.stored_doc import as_stored

SLUG_PATTERN = re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+)*$")


def sees_private_prompts(user: str) -> bool:
	return user == "Administrator" or "System Manager" in frappe.get_roles(user)


def prompt_is_visible(row, user: str | None = None) -> bool:
	"""Private prompts are visible to their owner and System Managers only."""
	user = user or frappe.session.user
	return row.get("visibility") != "Private" or row.get("owner") == user or sees_private_prompts(user)


def prompt_query_conditions(user: str | None = None, doctype: str | None = None) -> str:
	"""List condition for Agent Prompt / Agent Summary Prompt: no one else's Private prompts."""
	user = user or frappe.session.user
	if sees_private_prompts(user):
		return ""
	table = f"`tab{doctype or 'Agent Prompt'}`"
	return f"({table}.`visibility` != 'Private' or {table}.`owner` = {frappe.db.escape(user)})"


def prompt_has_permission(
	doc, ptype: str | None = None, user: str | None = None, debug: bool = False
) -> bool:
	"""Document check for Agent Prompt / Agent Summary Prompt: someone else's Private prompt is refused."""
	return prompt_is_visible(as_stored(doc, ptype, ("visibility", "owner")), user)


def slugify(text: str) -> str:
	return re.sub(r"[^a-z0-9]+", "-", (text or "").lower()).strip("-")[:120]


class VersionedPrompt(Document):
	def before_insert(self) -> None:
		previous = None
		if self.previous_version:
			previous = frappe.db.get_value(
				self.doctype, self.previous_version, ["lineage", "slug"], as_dict=True
			)
			if not previous:
				frappe.throw(
					_("Previous Version {0} does not exist.").format(frappe.bold(self.previous_version))
				)
		if previous:
			self.lineage = previous.lineage or self.previous_version
			self.slug = previous.slug
			self.version = self.max_version(self.lineage) + 1
		else:
			self.lineage = frappe.generate_hash(length=12)
			self.version = 1
		self.is_latest = 1

	def max_version(self, lineage: str) -> int:
		result = frappe.db.sql(f"select max(version) from `tab{self.doctype}` where lineage = %s", (lineage,))
		return cint(result[0][0] if result else 0)

	def validate(self) -> None:
		self.title = (self.title or "").strip()
		if not (self.prompt_body or "").strip():
			frappe.throw(_("Prompt Body cannot be empty."))
		self.slug = (self.slug or "").strip().lower() or slugify(self.title)
		if not SLUG_PATTERN.match(self.slug):
			frappe.throw(
				_("Slug may contain only lowercase letters, digits and single hyphens, e.g. sales-assistant.")
			)
		clash = frappe.db.get_value(
			self.doctype, {"slug": self.slug, "lineage": ("!=", self.lineage or "")}, "title"
		)
		if clash:
			frappe.throw(
				_("The slug {0} is already used by the prompt {1}.").format(
					frappe.bold(self.slug), frappe.bold(clash)
				),
				frappe.DuplicateEntryError,
			)
		before = self.get_doc_before_save()
		if before and before.lineage != self.lineage:
			frappe.throw(_("The lineage of a prompt version cannot be changed."))
		if before and before.prompt_body != self.prompt_body:
			frappe.throw(
				_(
					"Versions are immutable: the body of version {0} cannot be changed. Create a new version."
				).format(frappe.bold(before.version))
			)
		if not self.is_latest and not frappe.db.exists(
			self.doctype, {"lineage": self.lineage, "is_latest": 1, "name": ("!=", self.name or "")}
		):
			self.is_latest = 1  # a lineage always has exactly one latest version

	def on_update(self) -> None:
		if self.is_latest:
			frappe.db.sql(
				f"update `tab{self.doctype}` set is_latest = 0 where lineage = %s and name != %s",
				(self.lineage, self.name),
			)
		# Renaming the slug of one version renames it for the whole lineage.
		frappe.db.sql(
			f"update `tab{self.doctype}` set slug = %s where lineage = %s and slug != %s",
			(self.slug, self.lineage, self.slug),
		)

	def on_trash(self) -> None:
		if not self.is_latest:
			return
		newest = frappe.get_all(
			self.doctype,
			filters={"lineage": self.lineage, "name": ("!=", self.name)},
			order_by="version desc",
			limit=1,
			pluck="name",
		)
		if newest:
			frappe.db.set_value(self.doctype, newest[0], "is_latest", 1, update_modified=False)

	@frappe.whitelist(methods=["POST"])
	def create_new_version(
		self, prompt_body: str | None = None, title: str | None = None, description: str | None = None
	) -> str:
		"""Save a copy of this prompt as the next version of its lineage; returns the new name."""
		self.check_permission("write")
		new = frappe.copy_doc(self)
		new.previous_version = self.name
		for fieldname, value in (
			("prompt_body", prompt_body),
			("title", title),
			("description", description),
		):
			if value is not None:
				new.set(fieldname, value)
		new.insert()
		return new.name


def resolve_template(
	doctype: str, name: str, locked: bool | int, version_at_attach: int | None
) -> dict | None:
	"""The version of template `name` an agent runs with ({name, prompt_body}): the attached version when
	`locked`, else its lineage's latest active one.

	None when the template is missing, or unlocked and inactive with no active latest version.
	"""
	linked = frappe.db.get_value(
		doctype, name, ["name", "lineage", "prompt_body", "version", "is_active"], as_dict=True
	)
	if not linked:
		return None
	if cint(locked):
		version = cint(version_at_attach)
		if version and version != cint(linked.version) and linked.lineage:
			pinned = frappe.db.get_value(
				doctype,
				{"lineage": linked.lineage, "version": version},
				["name", "prompt_body"],
				as_dict=True,
			)
			if pinned:
				return pinned
		return linked
	if linked.lineage:
		latest = frappe.db.get_value(
			doctype,
			{"lineage": linked.lineage, "is_latest": 1, "is_active": 1},
			["name", "prompt_body"],
			as_dict=True,
		)
		if latest:
			return latest
	return linked if cint(linked.is_active) else None


def template_body(doctype: str, name: str, locked: bool | int, version_at_attach: int | None) -> str | None:
	"""The body of the version of template `name` an agent runs with (see resolve_template)."""
	resolved = resolve_template(doctype, name, locked, version_at_attach)
	return resolved.prompt_body if resolved else None
