"""Huf's cross-cutting tests and the test support every Huf test module shares.

`huf.tests.support` holds the real test peers (a scripted OpenAI-compatible LLM server, a throw-away
redis-server, the site served over HTTP in a thread) and waiting for background jobs. It uses only
public Frappe APIs, so every test runs the same under pytest on Frappe Lite and under
`bench --site S run-tests --app huf` on a real bench.
"""
