"""Ctrl-C (SIGINT) stops a resolution cleanly: KeyboardInterrupt is raised
within moments, the interpreter survives, the next call works, and a store
keeps what finished (a rerun resumes it)."""
import os
import signal
import threading
import time

import pytest

import adams
from conftest import cli, csv_of


def sigint_after(seconds):
    """SIGINT to this process `seconds` after the run's worker thread (named
    adams-run) has started, so that the signal lands in the run even on a
    loaded machine (a signal during adams_prepare only cancels the call)."""
    def fire():
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and not any(
                t.name == "adams-run" for t in threading.enumerate()):
            time.sleep(0.005)
        time.sleep(seconds)
        os.kill(os.getpid(), signal.SIGINT)
    t = threading.Thread(target=fire)
    t.start()
    return t


def test_sigint_stops_a_resolution():
    start = time.monotonic()
    t = sigint_after(0.3)
    with pytest.raises(KeyboardInterrupt):
        adams.resolve("S_2", stem=150, threads=2)   # tens of seconds uninterrupted
    t.join()
    assert time.monotonic() - start < 30  # uninterrupted: minutes
    r = adams.resolve("S_2", stem=20)               # the interpreter and library go on
    assert r.ext(15, 1) == 1


def test_sigint_keeps_the_store(tmp):
    db = tmp / "s.db"
    t = sigint_after(0.3)
    with pytest.raises(KeyboardInterrupt) as e:
        adams.resolve("S_2", stem=150, threads=1, save=db)
    t.join()
    assert "saved in" in str(e.value)
    with pytest.raises(adams.StoreError):           # no completed run yet
        adams.open(db)
    r = adams.resolve("S_2", stem=30, save=db)      # a smaller region: resumed, completed
    assert csv_of(r) == csv_of(adams.open(db))
    _, out, _ = cli("ext", str(db), "--format", "csv")
    assert out == csv_of(r)


def test_the_gil_is_released_during_a_run():
    box = {}
    t = threading.Thread(target=lambda: box.setdefault("r", adams.resolve("S_2", stem=60)))
    t.start()
    ticks = 0
    while t.is_alive():   # the main thread keeps running Python meanwhile
        ticks += 1
        time.sleep(0.001)
    t.join()
    assert box["r"].ext(15, 1) == 1
    assert ticks > 20, ticks
