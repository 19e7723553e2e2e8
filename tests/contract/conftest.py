import pytest

from service.app import create_app
from service.config import TestConfig


@pytest.fixture
def client():
    return create_app(TestConfig).test_client()
