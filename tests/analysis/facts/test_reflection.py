"""Globals rebound other than by the module's own assignments: by name, or any."""

from __future__ import annotations

from pathlib import Path

import libcst as cst
import pytest

from autoopt.analysis.core.context import ModuleContext
from autoopt.analysis.core.project import dependencies
from autoopt.analysis.facts.reflection import (
    Rebinding,
    constant_globals,
    imported_by_project,
    namespace_reader,
    rebinding,
)
from autoopt.analysis.facts.summaries import summary
from tests.analysis.helpers import context


def found(code: str) -> Rebinding:
    return rebinding(context(code))


@pytest.mark.parametrize(
    ("code", "name", "how"),
    [
        ('def f():\n    globals()["GAIN"] = 1\n', "GAIN", "`globals()`"),
        ('def f():\n    del globals()["GAIN"]\n', "GAIN", "`globals()`"),
        ('def f():\n    globals()["GAIN"] += 1\n', "GAIN", "`globals()`"),
        ("def f():\n    globals().update(GAIN=1)\n", "GAIN", "`globals()`"),
        ('def f():\n    globals().update({"GAIN": 1})\n', "GAIN", "`globals()`"),
        ('def f():\n    globals().setdefault("GAIN", 1)\n', "GAIN", "`globals()`"),
        ('ns = globals()\ndef f():\n    ns["GAIN"] = 1\n', "GAIN", "`globals()`"),
        ('vars()["GAIN"] = 1\n', "GAIN", "`vars()`"),
        ('for k in range(3):\n    locals()["GAIN"] = k\n', "GAIN", "`locals()`"),
        ('def f():\n    f.__globals__["GAIN"] = 1\n', "GAIN", "`f.__globals__`"),
        (
            'import sys\ndef f():\n    sys._getframe().f_globals["GAIN"] = 1\n',
            "GAIN",
            "`sys._getframe().f_globals`",
        ),
        (
            'import sys\ndef f():\n    setattr(sys.modules[__name__], "DT", 0.4)\n',
            "DT",
            "`sys.modules[__name__]`",
        ),
        (
            "import sys\nme = sys.modules[__name__]\ndef f():\n    me.DT = 0.4\n",
            "DT",
            "`sys.modules[__name__]`",
        ),
        (
            "import sys\ndef f():\n    del sys.modules.get(__name__).DT\n",
            "DT",
            "`sys.modules.get(__name__)`",
        ),
        (
            "from importlib import import_module\n"
            'def f():\n    vars(import_module(__name__))["DT"] = 0.4\n',
            "DT",
            "`import_module(__name__)`",
        ),
        (
            'def f():\n    __import__(__name__).__dict__["DT"] = 0.4\n',
            "DT",
            "`__import__(__name__)`",
        ),
        (
            "import __main__\ndef f():\n    __main__.DT = 0.4\n",
            "DT",
            "`__main__` (the module itself)",
        ),
        ("import sys\ndef f(key):\n    sys.modules[key].DT = 1\n", "DT", "`sys.modules[key]`"),
        (
            "import inspect\ndef f():\n    inspect.getmodule(f).DT = 0.4\n",
            "DT",
            "`inspect.getmodule(f)`",
        ),
    ],
)
def test_names_rebound(code: str, name: str, how: str) -> None:
    result = found(code)
    assert result.names == {name: how}
    assert result.anything == ""


@pytest.mark.parametrize(
    ("code", "how"),
    [
        ("def f(name):\n    globals()[name] = 1\n", "`globals()`"),
        ("def f(**kw):\n    globals().update(kw)\n", "`globals()`"),
        ("def f():\n    globals().clear()\n", "`globals()`"),
        ("def f(code):\n    exec(code, globals())\n", "`exec(code, globals())`"),
        ("def f(code):\n    exec(code)\n", "`exec(code)`"),
        ("def f(text):\n    return eval(text)\n", "`eval(text)`"),
        ("def f(helper):\n    helper(globals())\n", "`globals()`"),
        ("def f():\n    return globals()\n", "`globals()`"),
        ("def f():\n    g = globals().update\n", "`globals()`"),
        (
            "import sys\ndef f(n, v):\n    setattr(sys.modules[__name__], n, v)\n",
            "`sys.modules[__name__]`",
        ),
        (
            "import sys\ndef f(m):\n    m.x, m.y = sys.modules[__name__], 1\n",
            "`sys.modules[__name__]`",
        ),
        ("import sys\nfor m in list(sys.modules.values()):\n    m.DT = 1\n", "`sys.modules`"),
        (
            "import importlib, sys\nimportlib.reload(sys.modules[__name__])\n",
            "`sys.modules[__name__]`",
        ),
        (
            "import sys\ndef f():\n    sys.modules[__name__].__setattr__('DT', 1)\n",
            "`sys.modules[__name__]`",
        ),
        (
            "import sys\ndef f():\n    getattr(sys.modules[__name__], '__dict__')['DT'] = 1\n",
            "`sys.modules[__name__]`",
        ),
    ],
)
def test_any_global_rebound(code: str, how: str) -> None:
    assert found(code).anything == how


@pytest.mark.parametrize(
    "code",
    [
        "def f(x):\n    return x\n",
        'def f():\n    return globals()["GAIN"]\n',
        'def f():\n    return globals().get("GAIN", 1.0)\n',
        'def f():\n    return "GAIN" in globals()\n',
        "def f():\n    return sorted(globals())\n",
        "def f():\n    return [k for k in globals()]\n",
        "def f():\n    return len(vars())\n",  # a function's own locals
        "def f(obj):\n    vars(obj)['x'] = 1\n",  # another object's namespace
        "class C:\n    locals()['x'] = 1\n",  # the class body's namespace
        "import sys\ndef f():\n    return sys.modules[__name__].DT\n",
        'import sys\ndef f():\n    return getattr(sys.modules[__name__], "DT")\n',
        "import sys\ndef f():\n    return __name__ in sys.modules and len(sys.modules)\n",
        'import sys\ndef f():\n    sys.modules["numpy"].DT = 1\n',  # another module
        'import importlib\nnp = importlib.import_module("numpy")\nnp.x = 1\n',
        "def f(model):\n    return model.eval()\n",  # a method, not the builtin
    ],
)
def test_nothing_rebound(code: str) -> None:
    assert found(code) == Rebinding({}, "")


def _project(tmp_path: Path, files: dict[str, str], path: str = "model.py") -> ModuleContext:
    """The context of the file `path` of a project of `files`."""
    (tmp_path / "pyproject.toml").write_text("")
    for name, text in files.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text)
    source = (tmp_path / path).read_text()
    return ModuleContext(str(tmp_path / path), source, cst.parse_module(source))


MODEL = "GAIN = 0.5\n\ndef gain():\n    return GAIN\n"


@pytest.mark.parametrize(
    ("other", "names", "anything"),
    [
        (
            "import model\n\ndef tune():\n    model.GAIN = 0.1\n",
            {"GAIN": "`model` in `tune.py`"},
            "",
        ),
        (
            "import model as m\n\ndef tune():\n    setattr(m, 'GAIN', 0.1)\n",
            {"GAIN": "`m` in `tune.py`"},
            "",
        ),
        ("import model\n\ndef tune(k):\n    setattr(model, k, 0.1)\n", {}, "`model` in `tune.py`"),
        (
            "import sys\n\ndef tune():\n    sys.modules['model'].GAIN = 0.1\n",
            {"GAIN": "`sys.modules['model']` in `tune.py`"},
            "",
        ),
        ("import model\n\ndef tune():\n    return model.GAIN * 2\n", {}, ""),
        ("from model import GAIN\n\nGAIN = 0.1\n", {}, ""),  # its own name `GAIN`
        ("import other\n\n# model\nother.GAIN = 0.1\n", {}, ""),
        ("import sys\n\ndef tune(key):\n    sys.modules[key].GAIN = 0.1  # model\n", {}, ""),
    ],
)
def test_other_files(tmp_path: Path, other: str, names: dict[str, str], anything: str) -> None:
    ctx = _project(tmp_path, {"model.py": MODEL, "tune.py": other, "other.py": ""})
    result = rebinding(ctx)
    assert (result.names, result.anything) == (names, anything)


@pytest.mark.parametrize(
    "tune",
    [
        "from . import model\nmodel.GAIN = 1\n",
        "from pkg import model\nmodel.GAIN = 1\n",
        "import pkg.model\npkg.model.GAIN = 1\n",
        "from pkg import (\n    other,\n    model,\n)\nmodel.GAIN = 1\n",
        "from pkg import other, \\\n    model\nmodel.GAIN = 1\n",
    ],
)
def test_a_package_module(tmp_path: Path, tune: str) -> None:
    files = {"pkg/__init__.py": "", "pkg/other.py": "", "pkg/model.py": MODEL, "pkg/tune.py": tune}
    ctx = _project(tmp_path, files, "pkg/model.py")
    assert list(rebinding(ctx).names) == ["GAIN"]


def test_a_self_import(tmp_path: Path) -> None:
    code = "import model as me\nGAIN = 1\ndef f():\n    me.GAIN = 2\n"
    ctx = _project(tmp_path, {"model.py": code})
    assert rebinding(ctx).names == {"GAIN": "`me` (the module itself)"}


def test_the_files_importing_the_module_are_dependencies(tmp_path: Path) -> None:
    files = {"model.py": MODEL, "tune.py": "import model\n", "util.py": "x = 1  # model\n"}
    ctx = _project(tmp_path, files)
    rebinding(ctx)
    assert set(dependencies(ctx)) == {str(tmp_path / "tune.py")}


def test_the_importers_of_a_module_read_from_are_dependencies(tmp_path: Path) -> None:
    files = {
        "cfg.py": "GAIN = 0.5\n",
        "tune.py": "import cfg\n\ncfg.GAIN = 0.1\n",
        "model.py": "import jax.numpy as jnp\nimport cfg\n\ndef f(x):\n    return cfg.GAIN * x\n",
    }
    ctx = _project(tmp_path, files)
    summary(ctx, ctx.graph.functions["f"])
    assert set(dependencies(ctx)) == {str(tmp_path / "cfg.py"), str(tmp_path / "tune.py")}


CONSTANTS = """\
N = 8
SIZES = (2, 4)
SCALE = 2 ** -3
START = None
LAYERS = [64, 32]
W = jnp.ones(3)
K = 1
K = x
G = 0
NAME = f"run{N}"


def reset(p):
    global G
    G = p
"""


def test_constant_globals_are_constants_nothing_rebinds() -> None:
    """A list may have an array appended, a `global` statement rebinds, an f-string
    reads names: only the rest never holds an array."""
    assert constant_globals(context(CONSTANTS)) == {"N", "SIZES", "SCALE", "START"}
    rebound = CONSTANTS + "\nglobals()[name] = 1\n"
    assert constant_globals(context(rebound)) == frozenset()


@pytest.mark.parametrize(
    ("code", "reason"),
    [
        ("x = 1\nprint(x)\n", ""),
        ("show(globals())\n", "the module may hand out its own namespace (`globals`)"),
        (
            "import sys\nme = sys.modules[__name__]\n",
            "the module may hand out its own namespace (`modules`)",
        ),
        ("import inspect\n", "the module may hand out its own namespace (`inspect`)"),
        ("from inspect import signature\nprint(signature(len))\n", ""),
        ("from inspect import isclass, cleandoc\nisclass(int)\n", ""),
        (
            "from inspect import signature\nprint(signature(len, eval_str=True))\n",
            "the module may hand out its own namespace (`inspect`)",
        ),
        (
            "from inspect import signature\nshow = signature\n",
            "the module may hand out its own namespace (`inspect`)",
        ),
        (
            "from inspect import signature as sig\nprint(sig(len))\n",
            "the module may hand out its own namespace (`inspect`)",
        ),
        (
            "from inspect import getclosurevars\nprint(getclosurevars(len))\n",
            "the module may hand out its own namespace (`inspect`)",
        ),
        (
            "from inspect import signature\nimport inspect\nsignature(len)\n",
            "the module may hand out its own namespace (`inspect`)",
        ),
        (
            "from inspect import signature  # see inspect\nsignature(len)\n",
            "the module may hand out its own namespace (`inspect`)",
        ),
        (
            "from inspect import signature\nimport gc\nsignature(len)\n",
            "the module may hand out its own namespace (`gc`)",
        ),
        (
            "import gc\nobjs = gc.get_objects()\n",
            "the module may hand out its own namespace (`gc`)",
        ),
        ("import __main__\n", "the module may import itself (or `__main__`)"),
        ('if __name__ == "__main__":\n    print(1)\n', ""),
        ("# Build modules, then inspect them.\nx = 1  # not globals()\n", ""),
        (
            'import builtins\nrun = getattr(builtins, "eval")  # by a string\n',
            "the module may hand out its own namespace (`eval`)",
        ),
        ("x = m.eval()\n", "the module may hand out its own namespace (`eval`)"),
    ],
)
def test_namespace_reader(code: str, reason: str) -> None:
    assert namespace_reader(context(code)) == reason


def test_namespace_reader_of_a_self_import(tmp_path: Path) -> None:
    ctx = _project(tmp_path, {"model.py": "import model\nGAIN = 1\n"})
    assert namespace_reader(ctx) == "the module may import itself (or `__main__`)"


def test_imported_by_project(tmp_path: Path) -> None:
    ctx = _project(tmp_path, {"model.py": MODEL, "tune.py": "import model\n", "other.py": ""})
    assert imported_by_project(ctx)
    (tmp_path / "alone").mkdir()
    alone = _project(tmp_path / "alone", {"model.py": MODEL, "other.py": "x = 1\n"})
    assert not imported_by_project(alone)


_NNX = (
    "from flax import nnx\n\n\nclass Net(nnx.Module):\n    def __init__(self, *, rngs):\n"
    "        self.drop = nnx.Dropout(0.5, rngs=rngs)\n"
)
_EVAL = "the module may hand out its own namespace (`eval`)"


@pytest.mark.parametrize(
    ("code", "reason"),
    [
        # `eval` and `train` of a name proven to hold an nnx module: flax's methods
        (_NNX + "\n\nmodel = Net(rngs=nnx.Rngs(0))\nmodel.train()\nmodel.eval()\n", ""),
        ("from flax import nnx\nlayer = nnx.Dropout(0.5)\nlayer.eval()\n", ""),
        # a receiver not proven to hold an nnx module
        ("from flax import nnx\ndef f(model):\n    model.eval()\n", _EVAL),
        # the class defines, or stores, its own `eval`
        (
            _NNX + "\n    def eval(self):\n        pass\n\n\n"
            "model = Net(rngs=nnx.Rngs(0))\nmodel.eval()\n",
            _EVAL,
        ),
        (
            _NNX + "        self.eval = print\n\n\nmodel = Net(rngs=nnx.Rngs(0))\nmodel.eval()\n",
            _EVAL,
        ),
        # the builtin besides, or the word in a string
        (_NNX + "\n\nmodel = Net(rngs=nnx.Rngs(0))\nmodel.eval()\neval('1')\n", _EVAL),
        (_NNX + "\n\nmodel = Net(rngs=nnx.Rngs(0))\nmodel.eval()\nprint('eval')\n", _EVAL),
    ],
)
def test_namespace_reader_excuses_the_methods_of_nnx_modules(code: str, reason: str) -> None:
    assert namespace_reader(context(code)) == reason
