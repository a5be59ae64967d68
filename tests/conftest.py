"""Shared fixtures for the Python tests."""

from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture
def example_path() -> Path:
    """The commented example scenario."""
    return ROOT / "scenarios" / "example.toml"
