"""The fixtures of the snapshot tests are programs to analyse, not tests to collect
(some are named `conftest.py` or `test_*.py` on purpose)."""

collect_ignore = ["fixtures"]
