"""The policy tests share one fixed workspace; see world.py."""

from __future__ import annotations

import pytest

from tests.policy.world import World, build_world


@pytest.fixture(scope="session")
def world(tmp_path_factory: pytest.TempPathFactory) -> World:
    return build_world(tmp_path_factory.mktemp("policy-world"))
