from pathlib import Path

import pytest

from service.app import create_app
from service.config import TestConfig


@pytest.fixture
def client():
    return create_app(TestConfig).test_client()


#: the contract as committed (a test checks it is what service/openapi.py makes)
SPEC_PATH = Path(__file__).resolve().parents[2] / "openapi.yaml"
