"""Tests of Agent Triggers; shared test support lives in `huf.tests.support`."""
