"""Changing the library: new versions of a prompt and forks into new lineages."""

import frappe
from frappe import _
from frappe.model.document import Document

from huf.ai.prompts.kinds import PromptKind
from huf.ai.prompts.library import describe
from huf.huf.prompt_versions import slugify


def unique_slug(kind: PromptKind, title: str) -> str:
	"""A slug made from `title` that no lineage uses yet (`-2`, `-3`... appended when needed)."""
	base = slugify(title)[:110].strip("-") or "prompt"
	slug, n = base, 1
	while frappe.db.exists(kind.doctype, {"slug": slug}):
		n += 1
		slug = f"{base}-{n}"
	return slug


def create_new_version(
	doc: Document, prompt_body: str, title: str | None = None, description: str | None = None
) -> dict:
	"""The next version of `doc`'s lineage (it becomes the latest); `doc` itself never changes."""
	name = doc.create_new_version(prompt_body=prompt_body, title=title or None, description=description)
	return describe(frappe.get_doc(doc.doctype, name))


def fork(kind: PromptKind, doc: Document, title: str | None = None) -> dict:
	"""Version 1 of a new lineage with `doc`'s body, owned by the caller."""
	title = (title or "").strip() or _("{0} (fork)").format(doc.title)
	new = frappe.copy_doc(doc)
	new.update(
		{
			"title": title,
			"slug": unique_slug(kind, title),
			"previous_version": None,
			"lineage": None,
			"is_system": 0,
			"source_app": None,
			"visibility": "Public" if doc.visibility == "App" else doc.visibility,
		}
	)
	new.insert()
	return describe(new)
