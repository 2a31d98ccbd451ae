"""The threads a served worker answers requests on (companion.server.LastIdleFirst): each task goes
to the thread that finished last, so one phone's requests stay on one warm thread and database
connection; never more threads than asked, and tasks wait their turn when all are busy."""

from __future__ import annotations

import threading
import time
from concurrent.futures import CancelledError, wait

import pytest

from companion import server


def _busy(pool, count):
    """``count`` tasks running at once, each held until the returned event is set."""
    started, release = [], threading.Event()
    gate = threading.Barrier(count + 1)

    def hold():
        started.append(threading.get_ident())
        gate.wait(timeout=10)
        release.wait(timeout=10)
        return threading.get_ident()

    futures = [pool.submit(hold) for _ in range(count)]
    gate.wait(timeout=10)
    return futures, release


def test_requests_one_after_another_stay_on_the_thread_that_answered_last():
    pool = server.LastIdleFirst(4)
    try:
        futures, release = _busy(pool, 4)  # a busy moment: every thread made
        release.set()
        threads = {future.result(timeout=10) for future in futures}
        assert len(threads) == 4
        wait(futures)
        time.sleep(0.05)  # every thread back to idle
        last = pool.submit(threading.get_ident).result(timeout=10)
        answered = [pool.submit(threading.get_ident).result(timeout=10) for _ in range(20)]
        assert set(answered) == {last}  # Python's own pool changed thread at almost every request
        assert last in threads
    finally:
        pool.shutdown()


def test_no_more_threads_than_asked_and_the_rest_wait_their_turn():
    pool = server.LastIdleFirst(2)
    try:
        futures, release = _busy(pool, 2)
        waiting = [pool.submit(lambda n=n: (n, threading.get_ident())) for n in range(5)]
        time.sleep(0.05)
        assert not any(future.done() for future in waiting)  # both threads busy: queued
        release.set()
        results = [future.result(timeout=10) for future in waiting]
        assert [n for n, _ in results] == [0, 1, 2, 3, 4]
        assert {ident for _, ident in results} <= {future.result() for future in futures}
        assert len(pool._threads) == 2
    finally:
        pool.shutdown()


def test_a_failing_task_gives_its_error_to_its_future_and_the_thread_goes_on():
    pool = server.LastIdleFirst(1)
    try:
        failed = pool.submit(lambda: 1 / 0)
        with pytest.raises(ZeroDivisionError):
            failed.result(timeout=10)
        assert pool.submit(lambda a, b=0: a + b, 2, b=3).result(timeout=10) == 5
    finally:
        pool.shutdown()


def test_shutting_down_ends_every_thread_and_takes_no_more_tasks():
    pool = server.LastIdleFirst(3)
    futures, release = _busy(pool, 3)
    queued = pool.submit(lambda: "ran")
    cancelled_pool = server.LastIdleFirst(1)
    held, let_go = _busy(cancelled_pool, 1)
    dropped = cancelled_pool.submit(lambda: "never")
    release.set()
    pool.shutdown(wait=True)
    assert queued.result(timeout=1) == "ran"  # queued before the shutdown: still run
    assert not any(thread.is_alive() for thread in pool._threads)
    with pytest.raises(RuntimeError):
        pool.submit(lambda: None)
    cancelled_pool.shutdown(wait=False, cancel_futures=True)
    let_go.set()
    with pytest.raises(CancelledError):
        dropped.result(timeout=10)
    held[0].result(timeout=10)
    for thread in cancelled_pool._threads:
        thread.join(timeout=10)
        assert not thread.is_alive()


def test_a_served_worker_makes_its_threads_last_idle_first():
    class Settings:
        threads = 3

    worker = server.WarmThreadWorker.__new__(server.WarmThreadWorker)
    worker.cfg = Settings()
    pool = worker.get_thread_pool()
    assert isinstance(pool, server.LastIdleFirst) and pool._most == 3


def test_past_a_long_queue_the_newest_task_goes_first_and_the_rest_in_order():
    pool = server.LastIdleFirst(1)
    try:
        futures, release = _busy(pool, 1)
        ran = []
        burst = [pool.submit(ran.append, n) for n in range(server.NEWEST_FIRST_AFTER + 4)]
        poll = pool.submit(ran.append, "poll")  # came after the whole burst
        release.set()
        wait([*futures, *burst, poll], timeout=10)
        newest = list(range(server.NEWEST_FIRST_AFTER + 3, server.NEWEST_FIRST_AFTER - 1, -1))
        assert ran == ["poll", *newest, *range(server.NEWEST_FIRST_AFTER)]
    finally:
        pool.shutdown()
