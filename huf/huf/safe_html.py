"""HTML limited to what Markdown makes: the one sanitiser of rendered Markdown (`render_markdown`, /huf/docs).

Only Markdown's elements are kept (headings, paragraphs, lists, code, tables, quotes, rules, emphasis,
links and images), each with only the attributes Markdown gives it; links and images keep only http(s),
mailto (links) and relative URLs. Every other tag (script, style, link, meta, base, form, input,
button, iframe, object, embed, svg...) is shown as text, comments and declarations are dropped, and
the elements kept are closed in order, so nothing rendered can run code, restyle the page or post a form.
"""

from __future__ import annotations

import re
from html import escape
from html.parser import HTMLParser

VOID = frozenset(("br", "hr", "img"))
ELEMENTS = frozenset(
	"h1 h2 h3 h4 h5 h6 p br hr em strong b i del s code pre blockquote ul ol li "
	"table thead tbody tr th td a img sup sub kbd".split()
)
ATTRIBUTES = {
	"a": ("href", "title"),
	"img": ("src", "alt", "title"),
	"ol": ("start",),
	"code": ("class",),
	"th": ("style",),
	"td": ("style",),
	**{f"h{level}": ("id",) for level in range(1, 7)},
}
LINK_SCHEMES = frozenset(("http", "https", "mailto"))
IMAGE_SCHEMES = frozenset(("http", "https"))
SCHEME = re.compile(r"^([a-z][a-z0-9+.\-]*):", re.IGNORECASE)
INVISIBLE = re.compile(r"[\x00-\x20\x7f-\x9f\u00ad\u200b-\u200f\u2028-\u202e\u2060-\u206f\ufeff]+")
ALIGN = re.compile(r"^\s*text-align:\s*(left|right|center)\s*;?\s*$", re.IGNORECASE)
ANCHOR = re.compile(r"^[A-Za-z0-9_\-.:]{1,200}$")
LANGUAGE = re.compile(r"^language-[A-Za-z0-9_+#\-]{1,40}$")


def clean(html: str) -> str:
	"""`html` with only Markdown's elements and their safe attributes; everything else as text."""
	cleaner = _Cleaner()
	cleaner.feed(html or "")
	cleaner.close()
	return cleaner.result()


def safe_url(url: str, schemes: frozenset) -> str | None:
	"""`url` when it is relative or of one of `schemes` (as a browser would read it), else None."""
	match = SCHEME.match(INVISIBLE.sub("", url))
	return url if match is None or match.group(1).lower() in schemes else None


class _Cleaner(HTMLParser):
	def __init__(self):
		super().__init__(convert_charrefs=True)
		self.out: list[str] = []
		self.open: list[str] = []

	def result(self) -> str:
		return "".join(self.out) + "".join(f"</{tag}>" for tag in reversed(self.open))

	def handle_starttag(self, tag: str, attrs: list) -> None:
		if tag not in ELEMENTS:
			self.handle_data(self.get_starttag_text() or "")
			return
		self.out.append(f"<{tag}{_attributes(tag, attrs)}{' /' if tag in VOID else ''}>")
		if tag not in VOID:
			self.open.append(tag)

	def handle_startendtag(self, tag: str, attrs: list) -> None:
		self.handle_starttag(tag, attrs)
		if tag in ELEMENTS and tag not in VOID:
			self.handle_endtag(tag)

	def handle_endtag(self, tag: str) -> None:
		if tag not in ELEMENTS:
			self.handle_data(f"</{tag}>")
		elif tag in self.open:  # close what is still open inside it, then it
			while self.open:
				inner = self.open.pop()
				self.out.append(f"</{inner}>")
				if inner == tag:
					break

	def handle_data(self, data: str) -> None:
		self.out.append(escape(data, quote=False))


def _attributes(tag: str, attrs: list) -> str:
	kept = []
	for name, value in attrs:
		value = _attribute(tag, name, value or "")
		if value is not None:
			kept.append(f' {name}="{escape(value, quote=True)}"' if name != "style" else f' align="{value}"')
	return "".join(kept)


def _attribute(tag: str, name: str, value: str) -> str | None:
	"""The value to keep of attribute `name` (None: dropped)."""
	if name not in ATTRIBUTES.get(tag, ()):
		return None
	if name == "href":
		return safe_url(value, LINK_SCHEMES)
	if name == "src":
		return safe_url(value, IMAGE_SCHEMES)
	if name == "style":  # a table column's alignment only, kept as `align`
		match = ALIGN.match(value)
		return match.group(1).lower() if match else None
	if name == "class":
		return " ".join(token for token in value.split() if LANGUAGE.match(token)) or None
	if name == "id":
		return value if ANCHOR.match(value) else None
	if name == "start":
		return value if value.isdigit() and len(value) < 10 else None
	return value
