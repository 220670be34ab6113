"""Tests of conversations; shared test support lives in `huf.tests.support`."""
