"""Tests of media; shared test support lives in `huf.tests.support`."""
