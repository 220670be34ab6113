"""Tests of the runtime; shared test support lives in `huf.tests.support`."""
