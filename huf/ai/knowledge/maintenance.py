"""Daily maintenance of knowledge indexes (scheduler event `daily`)."""

from __future__ import annotations

import os
import shutil

import frappe

from huf.ai.knowledge.backends import get_backend
from huf.ai.knowledge.backends.sqlite_base import index_file_url, index_folder, remove_index_files
from huf.ai.knowledge.indexer import IndexBusyError, log_unexpected, source_lock, update_source

INDEX_SUFFIXES = (".sqlite3", ".chroma")


def daily_maintenance() -> None:
	"""Optimise every index, finish statuses left by crashed jobs, remove orphaned index files."""
	for name in frappe.get_all("Knowledge Source", pluck="name"):
		try:
			optimize_source(name)
		except IndexBusyError:
			continue  # a job is writing it right now
		except Exception as exc:
			log_unexpected(exc, name)
	remove_orphaned_files()


def optimize_source(name: str) -> None:
	with source_lock(name, wait=0):
		source = frappe.get_doc("Knowledge Source", name)
		backend = get_backend(source)
		try:
			backend.optimize()
			if source.status in ("Indexing", "Rebuilding"):  # nobody holds the lock: its job died
				update_source(source, backend)
		finally:
			backend.close()


def remove_orphaned_files() -> list[str]:
	"""Delete index files and folders that no Knowledge Source (of that backend) owns; returns their names."""
	folder = index_folder()
	if not os.path.isdir(folder):
		return []
	sources = {
		row.name: row.knowledge_type
		for row in frappe.get_all("Knowledge Source", fields=["name", "knowledge_type"])
	}
	removed = []
	for entry in sorted(os.listdir(folder)):
		base = entry.removesuffix("-wal").removesuffix("-shm").removesuffix("-journal")
		stem, suffix = os.path.splitext(base)
		if suffix not in INDEX_SUFFIXES:
			continue
		if owns(sources.get(stem), suffix):
			continue
		try:
			with source_lock(stem, wait=0):  # a source created meanwhile may be writing its first file
				if owns(frappe.db.get_value("Knowledge Source", stem, "knowledge_type"), suffix):
					continue
				remove_index(folder, base, stem, suffix)
		except IndexBusyError:
			continue
		if base not in removed:
			removed.append(base)
	frappe.db.commit()
	return removed


def owns(knowledge_type: str | None, suffix: str) -> bool:
	return knowledge_type is not None and (suffix == ".chroma") == (knowledge_type == "chroma")


def remove_index(folder: str, base: str, stem: str, suffix: str) -> None:
	path = os.path.join(folder, base)
	if suffix == ".chroma":
		shutil.rmtree(path, ignore_errors=True)
		return
	remove_index_files(path)
	for file_name in frappe.get_all("File", filters={"file_url": index_file_url(stem)}, pluck="name"):
		frappe.delete_doc("File", file_name, ignore_permissions=True, force=True)
