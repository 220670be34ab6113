"""/huf/docs and /huf/docs/<page>: the app's documentation (docs/*.md) rendered on the server.

For signed-in users with Huf access (guests go to the login page). A page is looked up by name among
the files of docs/ only, so no path can reach another file; unknown pages are 404. Markdown becomes
HTML through Frappe's markdown and sanitiser (`huf.ai.agent_chat.markdown_to_safe_html`); links to
other docs (`testing.md`, `docs/testing.md`, also named in text or code) lead to their pages.
"""

from __future__ import annotations

import os
import re
from urllib.parse import quote

import frappe
from frappe import _

from huf.huf.desk import has_app_permission
from huf.www.huf import login_target

no_cache = 1

ROUTE = "/huf/docs"
PAGE_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_-]{0,100}$")
DOC_HREF = re.compile(r'href="(?:\./|docs/)?([A-Za-z0-9][A-Za-z0-9_-]*)\.md(#[\w-]+)?"')
DOC_MENTION = re.compile(r"(?<![\w/.-])(?:docs/)?([A-Za-z0-9][A-Za-z0-9_-]*)\.md\b")
TAG = re.compile(r"(<[^>]*>)")


def get_context(context) -> None:
	if frappe.session.user == "Guest":
		frappe.local.flags.redirect_location = "/login?redirect-to=" + quote(login_target(), safe="/")
		raise frappe.Redirect(302)
	if not has_app_permission():
		raise frappe.PermissionError(_("You do not have access to Huf."))
	context.no_cache = 1
	pages = list_pages()
	context.pages = [{"name": name, "title": title, "url": page_url(name)} for name, title in pages.items()]
	page = (frappe.form_dict.get("page") or "").strip().strip("/")
	page = page[:-3] if page.endswith(".md") else page
	if not page:
		context.title = _("Huf documentation")
		context.page = None
		return
	if not PAGE_NAME.match(page) or page not in pages:
		raise frappe.PageDoesNotExistError
	context.page = page
	context.title = pages[page]
	context.body = render_page(page, pages)


def docs_folder() -> str:
	"""The app's docs/ folder (beside the `huf` package)."""
	return os.path.join(os.path.dirname(frappe.get_app_path("huf")), "docs")


def list_pages() -> dict[str, str]:
	"""{page name: first heading} of every docs/*.md, by name."""
	folder = docs_folder()
	if not os.path.isdir(folder):
		return {}
	pages = {}
	for filename in sorted(os.listdir(folder)):
		name, ext = os.path.splitext(filename)
		if ext == ".md" and PAGE_NAME.match(name) and os.path.isfile(os.path.join(folder, filename)):
			pages[name] = first_heading(os.path.join(folder, filename)) or name
	return pages


def first_heading(path: str) -> str | None:
	with open(path, encoding="utf-8", errors="replace") as f:
		for line in f:
			if line.startswith("#"):
				return line.lstrip("#").strip() or None
	return None


def page_url(name: str) -> str:
	return f"{ROUTE}/{name}"


def render_page(name: str, pages: dict[str, str]) -> str:
	"""The page's markdown as sanitised HTML, its links to other docs pointing at their pages."""
	from huf.ai.agent_chat import markdown_to_safe_html

	with open(os.path.join(docs_folder(), f"{name}.md"), encoding="utf-8", errors="replace") as f:
		html = markdown_to_safe_html(f.read())
	return link_docs(html, pages)


def link_docs(html: str, pages: dict[str, str]) -> str:
	"""Point links to other docs' .md files at their pages, and link docs named in text or code."""

	def href(match: re.Match) -> str:
		name, anchor = match.group(1), match.group(2) or ""
		return f'href="{page_url(name)}{anchor}"' if name in pages else match.group(0)

	def mention(match: re.Match) -> str:
		name = match.group(1)
		return f'<a href="{page_url(name)}">{match.group(0)}</a>' if name in pages else match.group(0)

	parts, in_link, in_pre = [], False, False
	for part in TAG.split(DOC_HREF.sub(href, html)):
		if part.startswith("<"):
			tag = part[1:].split(None, 1)[0].rstrip(">").lower() if len(part) > 2 else ""
			in_link = {"a": True, "/a": False}.get(tag, in_link)
			in_pre = {"pre": True, "/pre": False}.get(tag, in_pre)
			parts.append(part)
		else:
			parts.append(part if in_link or in_pre else DOC_MENTION.sub(mention, part))
	return "".join(parts)
