"""Tests of knowledge; shared test support lives in `huf.tests.support`."""
