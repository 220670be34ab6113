"""Real test peers and helpers shared by Huf's tests (public Frappe APIs only)."""
