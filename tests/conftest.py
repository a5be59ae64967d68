"""Shared fixtures for the Python tests."""

import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(Path(__file__).resolve().parent))  # helpers such as report_check


@pytest.fixture
def example_path() -> Path:
    """The commented example scenario."""
    return ROOT / "scenarios" / "example.toml"
