"""companion/http/bounded.py: the caches a caller fills itself keep at most their bound, forgetting
the least recently used first, as ``functools.lru_cache`` does for the others."""

from __future__ import annotations

import threading

from companion.http.bounded import Bounded


def test_the_least_recently_used_entry_is_forgotten_first():
    kept = Bounded(3)
    for key in "abc":
        assert kept.put(key, key.upper()) == key.upper()
    assert kept.get("a") == "A"  # a is used again: b is now the oldest
    kept.put("d", "D")
    assert list(kept) == ["c", "a", "d"] and kept.get("b") is None and kept.get("b", 0) == 0
    kept.put("c", "C2")  # a key put again is fresh, and the bound holds
    assert list(kept.items()) == [("a", "A"), ("d", "D"), ("c", "C2")]


def test_a_bound_of_zero_keeps_nothing():
    kept = Bounded(0)
    assert kept.put("a", 1) == 1 and kept.get("a") is None and not kept


def test_threads_sharing_one_never_pass_its_bound_nor_fail():
    kept, failures = Bounded(50), []

    def work(start: int) -> None:
        try:
            for number in range(start, start + 5_000):
                kept.put(number % 200, number)
                kept.get((number * 7) % 200)
        except Exception as error:  # noqa: BLE001 - any failure is the test's to report
            failures.append(error)

    threads = [threading.Thread(target=work, args=(start * 5_000,)) for start in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert not failures and len(kept) <= 50
