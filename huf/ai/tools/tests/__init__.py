"""Tests of Agent Tool Functions and their types; shared test support lives in `huf.tests.support`."""
