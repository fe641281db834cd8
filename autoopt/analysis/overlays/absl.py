"""Facts about absl (`absl-py`) that the analyses rely on.

A script's `if __name__ == "__main__": app.run(main)` hands its entry to absl, which
parses the flags and calls `main(argv)` from Python: the entry runs eagerly, once.
A name missing here is unknown.
"""

from __future__ import annotations

#: Calls that run the function given as their first argument from Python (eagerly, not
#: traced), with the program's arguments.
RUNS_EAGERLY = frozenset({"absl.app.run"})
