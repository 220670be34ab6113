"""User text can never break FTS5 syntax or reach SQL: quotes, operators, injections, unicode."""

from __future__ import annotations

import frappe

from huf.ai.knowledge.backends import Chunk, get_backend
from huf.ai.knowledge.backends.sqlite_fts import fts_query
from huf.tests.support.knowledge import KnowledgeTestCase, source_values

NASTY = [
	'"unbalanced quote',
	"it's O'Reilly's",
	"refunds AND NOT card OR NEAR(card refunds)",
	"title:refunds",
	"refund* ^card -card +card",
	'"; DROP TABLE chunks; --',
	"') OR 1=1 --",
	"(((",
	"NOT",
	"",
	"   ",
	"😀🔥",
	"Crème brûlée über naïve Zürich",
	"返金 ポリシー",
]


class TestFTSQuery(KnowledgeTestCase):
	def setUp(self):
		super().setUp()
		source = frappe._dict(source_values("KT fts nasty"))
		source.name = "KT fts nasty"
		self.backend = get_backend(source)
		self.backend.drop()
		texts = {
			"in-1": "Refunds go back to the card within five days.",
			"in-2": "Crème brûlée is served in Zürich cafés.",
			"in-3": "返金 ポリシー は 五日 です",
			"in-4": "Use AND, OR and NOT in your search; quotes like 'this' are fine.",
		}
		self.backend.add_chunks([Chunk(text=t, knowledge_input=k) for k, t in texts.items()])

	def tearDown(self):
		self.backend.drop()
		super().tearDown()

	def test_every_word_is_quoted_and_operators_lose_their_meaning(self):
		self.assertEqual(
			fts_query('refunds AND "card" OR NEAR(x)'),
			'"refunds" OR "and" OR "card" OR "or" OR "near" OR "x"',
		)
		self.assertEqual(fts_query('"; DROP TABLE chunks; --'), '"drop" OR "table" OR "chunks"')
		self.assertEqual(fts_query("*:^()"), "")

	def test_nasty_queries_never_raise_and_never_harm_the_index(self):
		for query in NASTY:
			with self.subTest(query=query):
				hits = self.backend.search(query, top_k=5)
				self.assertIsInstance(hits, list)
		self.assertEqual(self.backend.stats()["chunks"], 4)

	def test_operator_words_are_searched_as_words(self):
		hits = self.backend.search("NOT", top_k=5)
		self.assertEqual([hit.knowledge_input for hit in hits], ["in-4"])

	def test_unicode_and_diacritics_match(self):
		self.assertEqual(self.backend.search("creme brulee zurich", top_k=1)[0].knowledge_input, "in-2")
		self.assertEqual(self.backend.search("返金", top_k=1)[0].knowledge_input, "in-3")

	def test_an_injection_attempt_finds_nothing_and_drops_nothing(self):
		self.assertEqual(self.backend.search('"; DROP TABLE chunks; --', top_k=5), [])
		self.assertEqual(self.backend.search("refunds card", top_k=1)[0].knowledge_input, "in-1")
