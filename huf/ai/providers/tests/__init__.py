"""Tests of the provider seam and pricing; shared test support lives in `huf.tests.support`."""
