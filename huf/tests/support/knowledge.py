"""Test fixtures for knowledge: the runtime's scripted LLM, an embeddings AI Provider on it, sources and inputs.

Indexing runs in background jobs that must see the records, so these tests commit and delete what
they created (`cleanup_knowledge`).
"""

from __future__ import annotations

import os

import frappe

from huf.tests.support.jobs import wait_for_jobs
from huf.tests.support.runs import RuntimeTestCase

PROVIDER = "Knowledge LLM"
EMBED_MODEL = "embed-model"
DIMENSION = 256
SOURCE_PREFIX = "KT "

FACTS = {
	"refunds": "Refunds are paid back to the original card within five business days.",
	"shipping": "Orders ship from the Pune warehouse and usually arrive within one week.",
	"warranty": "The warranty covers manufacturing defects of every blender for two years.",
}


class KnowledgeTestCase(RuntimeTestCase):
	"""The runtime's test case (scripted LLM, agent provider) plus a provider for embeddings of DIMENSION."""

	@classmethod
	def setUpClass(cls) -> None:
		super().setUpClass()
		cls.llm.embedding_dimension = DIMENSION
		cls.addClassCleanup(cleanup_knowledge)
		frappe.conf.huf_llm_retry_attempts = 1
		make_embedding_provider(cls.llm.api_base)
		frappe.db.commit()


def make_embedding_provider(api_base: str) -> str:
	if frappe.db.exists("AI Provider", PROVIDER):
		frappe.db.set_value("AI Provider", PROVIDER, "api_base", api_base)
	else:
		frappe.get_doc(
			{
				"doctype": "AI Provider",
				"provider_name": PROVIDER,
				"api_key": "sk-knowledge-test",
				"api_base": api_base,
			}
		).insert(ignore_permissions=True)
	return PROVIDER


def source_values(name: str, knowledge_type: str = "sqlite_fts", **values) -> dict:
	"""Fields of a Knowledge Source on the scripted embeddings (vector types)."""
	fields = {"doctype": "Knowledge Source", "source_name": name, "knowledge_type": knowledge_type}
	if knowledge_type != "sqlite_fts":
		fields.update(embedding_model=EMBED_MODEL, embedding_provider=PROVIDER, vector_dimension=DIMENSION)
	fields.update(values)
	return fields


def make_source(name: str, knowledge_type: str = "sqlite_fts", **values) -> str:
	"""A committed Knowledge Source (name prefixed so clean-up finds it)."""
	name = name if name.startswith(SOURCE_PREFIX) else SOURCE_PREFIX + name
	if frappe.db.exists("Knowledge Source", name):
		delete_source(name)
	frappe.get_doc(source_values(name, knowledge_type, **values)).insert(ignore_permissions=True)
	frappe.db.commit()
	return name


def add_text(source: str, text: str, title: str | None = None) -> str:
	doc = frappe.get_doc(
		{
			"doctype": "Knowledge Input",
			"knowledge_source": source,
			"input_type": "Text",
			"text": text,
			"title": title,
		}
	).insert(ignore_permissions=True)
	frappe.db.commit()
	return doc.name


def add_file(source: str, file_name: str, content: bytes, is_private: int = 1) -> str:
	from huf.ai.media.common import new_file

	file_doc = new_file(file_name, content, "Knowledge Source", source, is_private=is_private)
	doc = frappe.get_doc(
		{
			"doctype": "Knowledge Input",
			"knowledge_source": source,
			"input_type": "File",
			"file": file_doc.file_url,
		}
	).insert(ignore_permissions=True)
	frappe.db.commit()
	return doc.name


def wait_indexed(timeout: float = 60) -> None:
	assert wait_for_jobs(timeout), "indexing jobs did not finish"
	frappe.db.rollback()  # a fresh snapshot of what the jobs wrote


def delete_source(name: str) -> None:
	frappe.set_user("Administrator")
	for agent_row in frappe.get_all("Agent Knowledge", filters={"knowledge_source": name}, fields=["parent"]):
		frappe.delete_doc("Agent", agent_row.parent, force=True, ignore_permissions=True)
	frappe.delete_doc("Knowledge Source", name, force=True, ignore_permissions=True)
	frappe.db.commit()
	wait_for_jobs(60)


def cleanup_knowledge() -> None:
	"""Delete every test source (and with them their inputs and index files) and the provider."""
	wait_for_jobs(60)
	frappe.set_user("Administrator")
	frappe.db.rollback()
	for name in frappe.get_all(
		"Knowledge Source", filters={"name": ("like", SOURCE_PREFIX + "%")}, pluck="name"
	):
		delete_source(name)
	frappe.delete_doc("AI Provider", PROVIDER, force=True, ignore_permissions=True)
	frappe.db.commit()


def index_files() -> list[str]:
	from huf.ai.knowledge.backends.sqlite_base import index_folder

	folder = index_folder()
	return sorted(os.listdir(folder)) if os.path.isdir(folder) else []
