"""AO201 on two equinox models trained together (a GAN's shape) and evaluated by an
`eqx.filter_jit` loss before training: the loss's body sees only tracers of the models'
arrays and their other leaves, numbers and functions it can neither change nor use to
hold a buffer (`facts/inert_modules.py`), so it ties the models to nothing; a model
with a field that could hold one keeps the donation unproven."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.rules.helpers import assert_same, rewrite, run_main

GAN = """
import equinox as eqx
import jax
import jax.numpy as jnp
import jax.random as jr


def lipswish(x):
    return 0.909 * jax.nn.silu(x)


class Box:
    def __init__(self):
        self.kept = None


class Critic(eqx.Module):
    mlp: eqx.nn.MLP
    scale: int

    def __init__(self, size, *, key):
        self.mlp = eqx.nn.MLP(size, "scalar", 8, 1, activation=lipswish, key=key)
        self.scale = 2


class Generator(eqx.Module):
    linear: eqx.nn.Linear

    def __init__(self, size, *, key):
        self.linear = eqx.nn.Linear(size, size, key=key)


@eqx.filter_jit
def loss(generator, critic, x):
    fake = jax.vmap(generator.linear)(x)
    return jnp.mean(jax.vmap(critic.mlp)(fake)) * critic.scale


@eqx.filter_jit
def make_step(generator, critic, x):
    grads = eqx.filter_grad(lambda pair: loss(pair[0], pair[1], x))((generator, critic))
    generator = eqx.apply_updates(generator, jax.tree_util.tree_map(lambda u: -0.1 * u, grads[0]))
    critic = eqx.apply_updates(critic, jax.tree_util.tree_map(lambda u: 0.1 * u, grads[1]))
    return generator, critic


def main():
    generator_key, critic_key = jr.split(jr.PRNGKey(0))
    generator = Generator(3, key=generator_key)
    critic = Critic(3, key=critic_key)
    x = jnp.linspace(0.0, 1.0, 12).reshape(4, 3)
    before = loss(generator, critic, x)
    for _ in range(3):
        generator, critic = make_step(generator, critic, x)
    return before, loss(generator, critic, x)
"""
DONATED = (
    "`generator`, `critic` are dead after every call of `make_step` and replaced by its "
    "output: keep `x` from donation by passing it first and donate the rest "
    '(`donate="all-except-first"`) so XLA reuses the buffers'
)


def finding(source: str):
    (found,) = [f for f in rewrite(source, ("AO201",)).findings if f.target == "make_step"]
    return found


def test_inert_models_evaluated_first_are_donated_together(tmp_path: Path) -> None:
    """Before, unsafe: "`critic` may hold the buffers of `generator` and is passed in the
    same call: `loss(generator, critic, x)` at line 62 runs code that may keep
    `generator`, and `critic` may hold what such code keeps"."""
    found = finding(GAN)
    assert (found.fix.value, found.message) == ("safe", DONATED)
    before, after = tmp_path / "gan_before.py", tmp_path / "gan_after.py"
    before.write_text(GAN)
    after.write_text(rewrite(GAN, ("AO201",)).new_source)
    assert_same(run_main(before, "gan_before"), run_main(after, "gan_after"))


TIED_FIELDS = (
    "cannot prove the leaves of `critic` are distinct buffers: a module class of this file may "
    "hold one array in two variables (tied weights), or one of the caller's (`Critic`)"
)


def kept_by_loss(line: int) -> str:
    """The loss's link, with the premise of `inert_modules` that fails for `critic`."""
    return (
        "`generator` may hold the buffers of `critic` and is passed in the same call: "
        f"`loss(generator, critic, x)` at line {line} runs code that may keep `critic` "
        f"(`critic` is bound at line {line - 2} to the result of `Critic`, not proven an "
        "equinox module of arrays and immutable values), and `generator` may hold what such "
        "code keeps"
    )


@pytest.mark.parametrize(
    ("old", "new", "why"),
    [
        # a plain object in a field: the body may store a buffer on it
        (
            "        self.scale = 2\n",
            "        self.scale = 2\n        self.box = Box()\n",
            TIED_FIELDS,
        ),
        # a list field: the body sees a new list, but code may fill the caller's
        (
            "        self.scale = 2\n",
            "        self.scale = 2\n        self.seen = []\n",
            kept_by_loss(53),
        ),
        # a field from a call autoopt does not read
        ("self.scale = 2", "self.scale = jax.tree_util.Partial(lipswish)", TIED_FIELDS),
        # an activation closing over what `__init__` was given
        ("activation=lipswish", "activation=lambda v: v * size", kept_by_loss(52)),
        # a model a library function returns
        (
            "    critic = Critic(3, key=critic_key)\n",
            "    critic = eqx.nn.inference_mode(Critic(3, key=critic_key))\n",
            "cannot prove the leaves of `critic` are distinct buffers "
            "(`eqx.nn.inference_mode(Critic(3, key=critic_key))`)",
        ),
    ],
)
def test_a_model_not_proven_inert_keeps_the_link(old: str, new: str, why: str) -> None:
    source = GAN.replace(old, new)
    assert source != GAN
    found = finding(source)
    assert (found.fix.value, found.message) == ("unsafe", f"{DONATED}; unsafe: {why}")
