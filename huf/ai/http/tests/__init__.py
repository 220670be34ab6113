"""Tests of the SSRF-safe HTTP client; shared test support lives in `huf.tests.support`."""
