"""The may-share relation read as of a donating statement (`facts/escape.py`): each
premise, and the donation verdicts it changes."""

from __future__ import annotations

from pathlib import Path

import libcst as cst
import pytest

from autoopt.analysis.core.context import ModuleContext
from autoopt.analysis.core.graph import MODULE, Stmt
from autoopt.analysis.facts.aliases import may_run_before
from autoopt.analysis.facts.donation import targets, verdicts
from autoopt.analysis.facts.escape import namespace_escape, sharing_at
from autoopt.analysis.facts.reflection import locals_escape
from autoopt.model import Applicability

from ..helpers import HEADER, context, stmt

STEP = """
from data import Loader, show

@jax.jit
def step(params, batch):
    return {"w": params["w"] - batch}

"""
LOOP = "for batch in loader:\n    params = step(params, batch)\n"


def _shares(body: str) -> bool:
    """Whether `batch` may share `params`'s buffers where the step runs."""
    ctx = context(STEP + body, HEADER)
    site = stmt(ctx, "params = step(params, batch)")
    return sharing_at(ctx, site, "params").may_share("batch", "params")


def _verdict(body: str) -> tuple[Applicability, str]:
    ctx = context(STEP + body, HEADER)
    donate, blocked = verdicts(ctx, next(targets(ctx, "step")))
    if blocked:
        return Applicability.NONE, blocked[0]
    return donate[0][1], donate[0][2]


@pytest.mark.parametrize(
    "body",
    [
        # the model reaches unseen code only after the loop
        'loader = Loader(8)\nparams = {"w": jnp.ones(3)}\n' + LOOP + 'show(params["w"])\n',
        # the loader and its batches were made before the model, which nothing hands out
        'loader = Loader(8)\nshow(loader)\nparams = {"w": jnp.ones(3)}\n' + LOOP,
    ],
)
def test_a_batch_of_unseen_code_is_no_alias_of_a_model_that_never_reached_it(body: str) -> None:
    assert not _shares(body)
    assert _verdict(body) == (Applicability.SAFE, "")


ALIAS = (
    "`batch` may hold the buffers of `params` and is passed in the same call: `batch` may "
    "hold what `loader` holds, and `loader` is bound at line 11 to the result of `Loader`, "
    "given `params`"
)
KEPT = "`params` is handed to `show`, which may keep it"


@pytest.mark.parametrize(
    ("body", "why"),
    [
        # built with the model
        ('params = {"w": jnp.ones(3)}\nloader = Loader(params)\n' + LOOP, ALIAS),
        # a logger handed the model before the loop: the keeper premise
        ('params = {"w": jnp.ones(3)}\nshow(params)\nloader = Loader(8)\n' + LOOP, KEPT),
        # handed out after the call, in the loop: it runs before the next call
        (
            'params = {"w": jnp.ones(3)}\nloader = Loader(8)\n' + LOOP + '    show(params["w"])\n',
            KEPT,
        ),
        # a closure over the model
        ('params = {"w": jnp.ones(3)}\nloader = Loader(lambda: params["w"])\n' + LOOP, ALIAS),
        # a dataset holding a leaf of the model
        ('params = {"w": jnp.ones(3)}\nloader = Loader([params["w"]])\n' + LOOP, ALIAS),
    ],
)
def test_unseen_code_the_model_reached_first_keeps_the_message(body: str, why: str) -> None:
    assert _shares(body) is (why == ALIAS)
    assert _verdict(body) == (Applicability.UNSAFE, why)


def test_a_batch_made_from_the_model_of_the_last_iteration_may_hold_its_buffers() -> None:
    body = (
        'params = {"w": jnp.ones(3)}\nfor _ in range(3):\n'
        "    batch = make(params)\n    params = step(params, batch)\n"
    )
    ctx = context("from data import make\n" + STEP + body, HEADER)
    site = stmt(ctx, "params = step(params, batch)")
    assert sharing_at(ctx, site, "params").may_share("batch", "params")


def _whole(ctx: ModuleContext, site: Stmt, name: str) -> bool:
    """Whether the relation `name` is judged by is the whole scope's."""
    return sharing_at(ctx, site, name).until is None


def test_a_function_is_read_in_order_for_a_value_the_call_made() -> None:
    """A function may run again, but what an earlier call handed out after its loop holds
    that call's buffers, never those this call made."""
    body = (
        "def train(loader):\n"
        '    params = {"w": jnp.ones(3)}\n'
        "    for batch in loader:\n"
        "        params = step(params, batch)\n"
        '    show(params["w"])\n'
    )
    ctx = context(STEP + body, HEADER)
    assert not _whole(ctx, stmt(ctx, "params = step(params, batch)"), "params")
    assert _verdict(body) == (Applicability.SAFE, "")


@pytest.mark.parametrize(
    "head",
    [
        "def train(params, loader):\n",  # the caller's value, handed out by an earlier call
        "def train(loader):\n    global params\n",  # a global's
        'def train(loader, start):\n    params = {"w": start}\n',  # holds a parameter's
        "def train(loader):\n    params = load()\n",  # made by unseen code
    ],
)
def test_a_function_is_read_whole_for_a_value_from_outside_the_call(head: str) -> None:
    body = head + "    for batch in loader:\n        params = step(params, batch)\n"
    body += '    show(params["w"])\n'
    ctx = context("from data import load\n" + STEP + body, HEADER)
    assert _whole(ctx, stmt(ctx, "params = step(params, batch)"), "params")
    assert _verdict(body)[0] is not Applicability.SAFE


@pytest.mark.parametrize(
    ("spelling", "word"),
    [
        ("Loader(globals())", "globals"),
        ("Loader(sys.modules[__name__])", "modules"),
        ("Loader(inspect.currentframe())", "currentframe"),
        ("Loader(gc.get_objects())", "gc"),
    ],
)
def test_a_module_handing_out_its_namespace_is_not_read_in_order(spelling: str, word: str) -> None:
    body = f'import sys, inspect, gc\nparams = {{"w": jnp.ones(3)}}\nloader = {spelling}\n' + LOOP
    ctx = context(STEP + body, HEADER)
    assert _whole(ctx, stmt(ctx, "params = step(params, batch)"), "params")
    assert namespace_escape(ctx, MODULE).startswith("the module may hand out its own namespace")
    assert namespace_escape(ctx, "step") == ""
    assert _verdict(body)[0] is not Applicability.SAFE


def test_a_namespace_handed_out_makes_a_global_model_unsafe() -> None:
    body = 'params = {"w": jnp.ones(3)}\nloader = Loader(globals())\n' + LOOP
    assert _verdict(body) == (
        Applicability.UNSAFE,
        "`params` is a global and the module may hand out its own namespace (`globals`): "
        "code autoopt cannot see may read it",
    )


def test_a_module_another_file_imports_is_not_read_in_order(tmp_path: Path) -> None:
    (tmp_path / "pyproject.toml").write_text("")
    (tmp_path / "other.py").write_text("import main\n\nprint(main.params)\n")
    source = HEADER + STEP + 'loader = Loader(8)\nparams = {"w": jnp.ones(3)}\n' + LOOP
    path = tmp_path / "main.py"
    path.write_text(source)
    ctx = ModuleContext(str(path), source, cst.parse_module(source))
    assert _whole(ctx, stmt(ctx, "params = step(params, batch)"), "params")


def test_may_run_before_counts_earlier_statements_and_a_shared_loop() -> None:
    ctx = context(
        "a = 1\nfor i in range(3):\n    b = a\n    c = b\nd = c\n",
    )
    first, inner, later, after = (stmt(ctx, t) for t in ("a = 1", "b = a", "c = b", "d = c"))
    assert may_run_before(first, inner)
    assert may_run_before(later, inner)  # the next iteration
    assert not may_run_before(after, inner)
    assert not may_run_before(inner, inner)


def test_a_capitalised_function_of_the_module_is_followed() -> None:
    """`MLP_predict(params, x)` is a function of the module, not a class autoopt cannot
    see: what it returns is read from its body (new buffers here)."""
    ctx = context(
        "def MLP_predict(params, x):\n    return jnp.dot(params, x)\n\n"
        "params = jnp.ones(3)\nprediction = MLP_predict(params, jnp.ones(3))\n",
        HEADER,
    )
    sharing = sharing_at(ctx, stmt(ctx, "prediction = MLP_predict(params, jnp.ones(3))"), "x")
    assert not any(n.startswith("<") for n in sharing.holds.get("prediction", set()))


@pytest.mark.parametrize(
    ("line", "why"),
    [
        ("start = dict(locals())", "`locals()` at line 12 takes it"),
        ("start = vars()", "`vars()` at line 12 takes it"),
        ("eval('params')", "`eval('params')` at line 12 takes it"),
        ("start = vars(config)", None),  # another object's attributes
        ("start = dict(config)", None),
    ],
)
def test_a_function_handing_out_its_locals_lets_code_read_the_model(
    line: str, why: str | None
) -> None:
    body = f'def main(config):\n    params = {{"w": jnp.ones(3)}}\n    {line}\n'
    body += "    for batch in Loader(8):\n        params = step(params, batch)\n"
    ctx = context(STEP + body, HEADER)
    found = locals_escape(ctx, "main")
    assert found == ("" if why is None else f"is a local of `main`, and {why}")
    assert _verdict(body) == (
        (Applicability.SAFE, "") if why is None else (Applicability.UNSAFE, f"`params` {found}")
    )


def test_a_module_reading_frames_may_read_any_local() -> None:
    body = 'def main():\n    params = {"w": jnp.ones(3)}\n    print(sys._getframe())\n'
    ctx = context("import sys\n" + STEP + body, HEADER)
    assert locals_escape(ctx, "main") == (
        "is a local of `main`, and the module names `_getframe`, which may read it"
    )
    assert locals_escape(ctx, MODULE) == ""  # a global: `namespace_escape`'s
