from .integration_test_case import IntegrationTestCase
from .unit_test_case import UnitTestCase

__all__ = ["IntegrationTestCase", "UnitTestCase"]
