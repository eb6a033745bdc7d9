"""The window's rules for the cyclic garbage collector: pauses nest, across threads too, and
settling exempts what is alive."""

from __future__ import annotations

import gc
import threading
from collections.abc import Iterator

import pytest

from studio.ui import collector


@pytest.fixture(autouse=True)
def _collector_restored() -> Iterator[None]:
    was = gc.isenabled()
    yield
    gc.unfreeze()
    if was:
        gc.enable()
    else:
        gc.disable()


def test_pauses_nest_and_the_collector_comes_back_after_the_last() -> None:
    gc.enable()
    with collector.paused():
        assert not gc.isenabled()
        with collector.paused():
            assert not gc.isenabled()
        assert not gc.isenabled()
    assert gc.isenabled()


def test_a_pause_in_another_thread_does_not_end_this_one() -> None:
    gc.enable()
    inside = threading.Event()
    leave = threading.Event()

    def other() -> None:
        with collector.paused():
            inside.set()
            leave.wait()

    thread = threading.Thread(target=other)
    thread.start()
    inside.wait()
    with collector.paused():
        leave.set()
        thread.join()
        assert not gc.isenabled()
    assert gc.isenabled()


def test_a_collector_that_was_off_stays_off() -> None:
    gc.disable()
    with collector.paused():
        pass
    assert not gc.isenabled()


def test_settling_exempts_what_is_alive_from_later_collections() -> None:
    gc.unfreeze()
    kept = [[] for _ in range(1000)]
    before = gc.get_freeze_count()
    collector.settle()
    assert gc.get_freeze_count() >= before + len(kept)
