"""HTML sanitising, as Frappe's `frappe.utils.html_utils` (without bleach: tags outside the allow-list are escaped)."""

from __future__ import annotations

import json
from html import escape
from html.parser import HTMLParser

_ACCEPTABLE_ELEMENTS = frozenset(
	"a abbr acronym address area article aside audio b big blockquote br button canvas caption center cite "
	"code col colgroup command datagrid datalist dd del details dfn dialog dir div dl dt em event-source "
	"fieldset figcaption figure footer font form header h1 h2 h3 h4 h5 h6 hr i img input ins keygen kbd "
	"label legend li m map mark menu meter multicol nav nextid ol output optgroup option p pre progress q s "
	"samp section select small sound source spacer span strike strong sub summary sup table tbody td "
	"textarea time tfoot th thead tr tt u ul var video html head meta link body style".split()
)
_ACCEPTABLE_ATTRIBUTES = frozenset(
	"abbr accept accept-charset accesskey action align alt autocomplete autofocus axis background balance "
	"bgcolor border cellpadding cellspacing char charoff charset checked cite class clear color cols colspan "
	"compact content contenteditable controls coords data datetime default dir disabled draggable enctype "
	"face for form frame headers height hidden high href hreflang hspace icon id inputmode ismap label lang "
	"list longdesc loop low max maxlength media method min multiple name nohref noshade nowrap open optimum "
	"pattern ping poster preload prompt radiogroup readonly rel required rev rows rowspan rules scope "
	"selected shape size span src start step style summary tabindex target title type usemap valign value "
	"vspace width wrap".split()
)
_SAFE_PROTOCOLS = ("cid:", "http:", "https:", "mailto:")


def is_json(text):
	try:
		json.loads(text)
	except ValueError:
		return False
	else:
		return True


def sanitize_html(html, linkify=False, always_sanitize=False):
	"""Escape tags and drop attributes that could run script (XSS); plain text and JSON pass unchanged."""
	if not isinstance(html, str):
		return html
	if not always_sanitize:
		if is_json(html):
			return html
		if not _has_tags(html):
			return html
	cleaner = _Cleaner()
	cleaner.feed(html)
	cleaner.close()
	return "".join(cleaner.out)


def _has_tags(html: str) -> bool:
	finder = _TagFinder()
	finder.feed(html)
	finder.close()
	return finder.found


class _TagFinder(HTMLParser):
	found = False

	def handle_starttag(self, tag, attrs):
		self.found = True


class _Cleaner(HTMLParser):
	def __init__(self):
		super().__init__(convert_charrefs=False)
		self.out: list[str] = []

	def _attrs(self, attrs) -> str:
		kept = []
		for name, value in attrs:
			if not (name in _ACCEPTABLE_ATTRIBUTES or name.startswith("data-")):
				continue
			if value is not None and name in ("href", "src", "action", "background", "poster"):
				target = value.strip().lower()
				if ":" in target.split("/", 1)[0] and not target.startswith(_SAFE_PROTOCOLS):
					continue
			kept.append(f' {name}="{escape(value, quote=True)}"' if value is not None else f" {name}")
		return "".join(kept)

	def handle_starttag(self, tag, attrs):
		text = f"<{tag}{self._attrs(attrs)}>"
		self.out.append(text if tag in _ACCEPTABLE_ELEMENTS else escape(self.get_starttag_text() or text))

	def handle_startendtag(self, tag, attrs):
		text = f"<{tag}{self._attrs(attrs)} />"
		self.out.append(text if tag in _ACCEPTABLE_ELEMENTS else escape(self.get_starttag_text() or text))

	def handle_endtag(self, tag):
		self.out.append(f"</{tag}>" if tag in _ACCEPTABLE_ELEMENTS else escape(f"</{tag}>"))

	def handle_data(self, data):
		self.out.append(escape(data, quote=False))

	def handle_entityref(self, name):
		self.out.append(f"&{name};")

	def handle_charref(self, name):
		self.out.append(f"&#{name};")

	def handle_comment(self, data):
		self.out.append(f"<!--{escape(data, quote=False)}-->")
