"""Tests of the entry modules (REST, chat, stream); shared test support lives in `huf.tests.support`."""
