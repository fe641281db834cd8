"""Run a corpus program's `main()` and save its result tree (tests/test_corpus.py).

Usage: python tests/corpus_runner.py PROGRAM.py OUT_DIR NAME
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

from autoopt.verify.probes import flatten
from autoopt.verify.trees import save_tree


def main() -> None:
    program, out, name = Path(sys.argv[1]), Path(sys.argv[2]), sys.argv[3]
    sys.path.insert(0, str(program.parent))
    spec = importlib.util.spec_from_file_location(program.stem, program)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[program.stem] = module
    spec.loader.exec_module(module)
    save_tree(flatten(module.main()), out, name)


if __name__ == "__main__":
    main()
