"""Methods of an nnx module class returning a closure over layers they build (issue 26,
a U-Net's residual blocks): such a field adds no leaf to the module and shares none."""

from __future__ import annotations

import textwrap

import pytest

from autoopt.analysis.core.graph import MODULE
from autoopt.analysis.facts.aliases import repeated_leaf
from autoopt.analysis.facts.closure_factories import factories

from ..helpers import context

NNX = "import jax\nimport jax.numpy as jnp\nfrom flax import nnx\n"
UNPROVEN = "cannot prove the leaves of `s` are distinct buffers"
TIED = (
    ": a module class of this file may hold one array in two variables (tied weights), "
    "or one of the caller's (`{}`)"
)

BLOCK = '''
def _block(self, n_in: int, n_out: int, rngs: nnx.Rngs):
    """A residual block."""
    hidden = n_out * 2
    conv = nnx.Conv(in_features=n_in, out_features=hidden, kernel_size=(3, 3), rngs=rngs)
    norm = nnx.LayerNorm(hidden, rngs=rngs)
    back = nnx.Linear(hidden, n_in, use_bias=False, rngs=rngs)

    def forward(x: jax.Array) -> jax.Array:
        B, C = x.shape[0], x.shape[-1]
        y = nnx.gelu(norm(conv(x)))
        y = jax.nn.softmax(y, axis=-1) / jnp.sqrt(C).astype(x.dtype)
        return x + back(y) * len((B,))

    return forward
'''


def _net(method: str, init: str = "self.block = self._block(n, n * 2, rngs)") -> str:
    return (
        "class Net(nnx.Module):\n"
        "    def __init__(self, n: int, *, rngs: nnx.Rngs):\n"
        "        self.proj = nnx.Linear(n, n, rngs=rngs)\n"
        f"{textwrap.indent(textwrap.dedent(init), ' ' * 8)}\n"
        f"{textwrap.indent(textwrap.dedent(method), ' ' * 4)}\n"
    )


def _found(code: str) -> dict[str, tuple[str, ...]]:
    ctx = context(code, NNX)
    return {name: found.sizes for name, found in factories(ctx, "Net").items()}


def test_a_block_building_its_layers_is_a_factory_whose_sizes_are_its_numbers() -> None:
    assert _found(_net(BLOCK)) == {"_block": ("n_in", "n_out")}


@pytest.mark.parametrize(
    "method",
    [
        # the closure reads a layer of the module's own, or the module
        BLOCK.replace("return x + back(y)", "return x + self.proj(y)"),
        BLOCK.replace("back = nnx.Linear(hidden, n_in, use_bias=False, rngs=rngs)", "back = self"),
        # it reads the array of a layer of the module's own
        BLOCK.replace("hidden = n_out * 2", "hidden = self.proj.kernel[...]"),
        # it stores a layer it builds on the module too
        BLOCK.replace("    def forward", "    self.extra = back\n\n    def forward"),
        # it returns a layer, not a closure
        BLOCK.replace("return forward", "return back"),
        # the closure is kept elsewhere too
        BLOCK.replace("    return forward", "    KEPT.append(forward)\n    return forward"),
        # an unknown call builds a local, or the closure calls one
        BLOCK.replace("nnx.LayerNorm(hidden, rngs=rngs)", "make_norm(hidden, rngs)"),
        BLOCK.replace("y = nnx.gelu(", "y = helper("),
        # a layer given an initializer, which may return an array it holds
        BLOCK.replace("use_bias=False,", "kernel_init=init,"),
        # a layer whose calls draw from `rngs`, not listed as keeping nothing
        BLOCK.replace("nnx.LayerNorm(hidden, rngs=rngs)", "nnx.Dropout(0.1, rngs=rngs)"),
        # the closure reads `rngs`, or a global array
        BLOCK.replace("return x + back(y)", "return x + back(y, rngs=rngs)"),
        BLOCK.replace("return x + back(y)", "return x + back(y) @ TABLE"),
        # a default, a lambda, `nonlocal` or a decorator in the closure
        BLOCK.replace("def forward(x: jax.Array)", "def forward(x: jax.Array, w=back)"),
        BLOCK.replace("y = nnx.gelu(", "y = (lambda v: v)("),
        BLOCK.replace("        B, C =", "        nonlocal back\n        B, C ="),
        BLOCK.replace("    def forward", "    @jax.jit\n    def forward"),
        # a store into a layer it closes over, or an augmented assignment
        BLOCK.replace("        B, C =", "        back.kernel = norm.scale\n        B, C ="),
        BLOCK.replace("        B, C =", "        x += 1\n        B, C ="),
        # a local bound twice, a branch, `*args`
        BLOCK.replace("    def forward", "    norm = back\n\n    def forward"),
        BLOCK.replace('    """A residual block."""', "    if n_in:\n        n_in = 1"),
        BLOCK.replace("rngs: nnx.Rngs)", "rngs: nnx.Rngs, *more)"),
        # a layer given what `rngs` names, or `rngs` read as a size
        BLOCK.replace("back = nnx.Linear(hidden, n_in,", "back = nnx.Linear(hidden, rngs,"),
        # the method decorated
        "@staticmethod\n" + BLOCK.replace("(self, ", "("),
    ],
)
def test_what_is_no_factory(method: str) -> None:
    assert _found(_net(method)) == {}


@pytest.mark.parametrize(
    "extra",
    [
        "Net._block = other",  # the method replaced on the class
        "model.__class__ = Other",
        "setattr(model, '_block', other)",
    ],
)
def test_a_method_the_program_may_replace_is_no_factory(extra: str) -> None:
    assert _found(_net(BLOCK) + extra + "\n") == {}


def test_a_builtin_a_star_import_may_rebind_is_not_read() -> None:
    code = _net(BLOCK)
    assert _found(code) == {"_block": ("n_in", "n_out")}  # `len`, the builtin
    assert _found("from helpers import *\n" + code) == {}


def test_a_class_with_an_attribute_hook_has_no_factory() -> None:
    hook = "def __getattr__(self, name):\n    return self.proj\n"
    assert _found(_net(BLOCK + hook)) == {}


def _leaves(code: str) -> tuple[str, bool] | None:
    ctx = context(code + "print(s)\n", NNX)
    return repeated_leaf(ctx, ctx.graph.scope_stmts(MODULE)[-1], "s")


@pytest.mark.parametrize(
    ("init", "made"),
    [
        ("self.block = self._block(n, n * 2, rngs)", "Net(4, rngs=nnx.Rngs(0))"),
        ("self.block = self._block(n_in=n, n_out=8, rngs=rngs)", "Net(4, rngs=nnx.Rngs(0))"),
        (  # two fields, each from a call of its own: two closures
            "self.down = self._block(n, 8, rngs)\nself.up = self._block(8, n, rngs)",
            "Net(4, rngs=nnx.Rngs(0))",
        ),
    ],
)
def test_a_module_storing_factory_closures_has_distinct_leaves(init: str, made: str) -> None:
    assert _leaves(_net(BLOCK, init) + f"s = {made}\n") is None


@pytest.mark.parametrize(
    ("code", "cls"),
    [
        (  # the closure holds the caller's array: a size given an array
            _net(BLOCK, "self.block = self._block(w, n, rngs)").replace(
                "self, n: int", "self, n, w"
            )
            + "s = Net(4, jnp.ones(3), rngs=nnx.Rngs(0))\n",
            "Net",
        ),
        (  # a parameter read by the closure, given the array the module keeps too
            _net(
                "def _block(self, w):\n"
                "    def forward(x):\n        return x @ w\n\n    return forward\n",
                "self.w = nnx.Param(w)\nself.block = self._block(w)",
            ).replace("self, n: int", "self, n, w")
            + "s = Net(4, jnp.ones((4, 4)), rngs=nnx.Rngs(0))\n",
            "Net",
        ),
        (  # one factory result in two fields (here the same closure)
            _net(BLOCK, "block = self._block(n, 8, rngs)\nself.a = block\nself.b = block")
            + "s = Net(4, rngs=nnx.Rngs(0))\n",
            "Net",
        ),
        (
            _net(BLOCK, "self.a = self.b = self._block(n, 8, rngs)")
            + "s = Net(4, rngs=nnx.Rngs(0))\n",
            "Net",
        ),
        (  # a field stored from another: `self.b = self.a`
            _net(BLOCK, "self.a = self._block(n, 8, rngs)\nself.b = self.a")
            + "s = Net(4, rngs=nnx.Rngs(0))\n",
            "Net",
        ),
        (  # no factory: the closure reads a layer of the module's own
            _net(BLOCK.replace("return x + back(y)", "return x + self.proj(y)"))
            + "s = Net(4, rngs=nnx.Rngs(0))\n",
            "Net",
        ),
        (  # a subclass overriding the factory: its objects are not proven
            _net(BLOCK) + "class Tied(Net):\n"
            "    def _block(self, n_in, n_out, rngs):\n"
            "        kernel = self.proj.kernel[...]\n\n"
            "        def forward(x):\n            return x @ kernel\n\n"
            "        return forward\n\n"
            "s = Tied(4, rngs=nnx.Rngs(0))\n",
            "Tied",
        ),
        (  # a starred call of the factory
            _net(BLOCK, "sizes = (n, 8)\nself.block = self._block(*sizes, rngs=rngs)")
            + "s = Net(4, rngs=nnx.Rngs(0))\n",
            "Net",
        ),
    ],
)
def test_what_a_factory_closure_does_not_prove(code: str, cls: str) -> None:
    assert _leaves(code) == (UNPROVEN + TIED.format(cls), False)
