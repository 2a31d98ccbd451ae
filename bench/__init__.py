"""Benchmarks to rerun (`make bench`): ratios against a bare Flask app served the same way, in the same run.

Not tests: they print figures. They reuse the test suite's helpers (``tests.conftest``, ``tests.pg``).
"""
