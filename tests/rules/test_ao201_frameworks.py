"""AO201 on the frameworks' jits: the rewritten programs run and compute what the
originals did (`nnx.jit` modules written back in place, `eqx.filter_jit` modes)."""

from __future__ import annotations

import pytest

from tests.rules.helpers import assert_same, rewrite, run_snippet

NNX_STEP = """
import jax.numpy as jnp
import optax
from flax import nnx

class Counter(nnx.Module):
    def __init__(self):
        self.count = nnx.Variable(jnp.zeros(4))

@nnx.jit
def bump(model, x):
    model.bias.value = model.bias.value + x.sum()
    return model.bias.value.sum()

@nnx.jit
def count(counter, x):
    counter.count.value = counter.count.value + x

@nnx.jit
def train_step(model, optimizer, x, y):
    def loss_fn(model):
        return jnp.mean((model(x) - y) ** 2)

    loss, grads = nnx.value_and_grad(loss_fn)(model)
    optimizer.update(model, grads)
    return loss

def main():
    x, y = jnp.ones((8, 3)), jnp.linspace(0.0, 1.0, 8).reshape(8, 1)
    model = nnx.Linear(2, 2, rngs=nnx.Rngs(0))
    for _ in range(4):
        total = bump(model, x)
    counter = Counter()
    for _ in range(3):
        count(counter, x[0, :1] + 1.0)
    net = nnx.Linear(3, 1, rngs=nnx.Rngs(1))
    optimizer = nnx.Optimizer(net, optax.adam(0.05), wrt=nnx.Param)
    for _ in range(20):
        loss = train_step(net, optimizer, x, y)
    return total, model.bias.value, counter.count.value, loss, net.kernel.value

result = main()
"""

EQX_STEP = """
import equinox as eqx
import jax.numpy as jnp

@eqx.filter_jit
def step(table, state, rate):
    return state * rate + table

def main():
    table = jnp.arange(4.0)
    state = jnp.zeros(4)
    for _ in range(5):
        state = step(table, state, 0.5)
    return state, table

result = main()
"""

EQX_TRAIN = """
import equinox as eqx
import jax
import jax.numpy as jnp
import optax

optim = optax.adam(0.01)

def loss_fn(model, x, y):
    return jnp.mean((jax.vmap(model)(x) - y) ** 2)

@eqx.filter_jit
def train_step(model, opt_state, x, y):
    loss, grads = eqx.filter_value_and_grad(loss_fn)(model, x, y)
    updates, opt_state = optim.update(grads, opt_state, model)
    model = eqx.apply_updates(model, updates)
    return model, opt_state, loss

def main():
    key = jax.random.PRNGKey(0)
    model = eqx.nn.MLP(4, 1, 16, 2, key=key)
    opt_state = optim.init(eqx.filter(model, eqx.is_array))
    for _ in range(20):
        key, sub = jax.random.split(key)
        x = jax.random.normal(sub, (32, 4))
        y = jnp.sum(x, axis=1, keepdims=True)
        model, opt_state, loss = train_step(model, opt_state, x, y)
    return loss, eqx.filter(model, eqx.is_array)

result = main()
"""


@pytest.mark.parametrize(
    ("source", "unsafe", "written"),
    [
        (NNX_STEP, False, ['donate_argnames=("model",)']),
        (
            NNX_STEP,
            True,
            ['donate_argnames=("counter",)', 'donate_argnames=("model", "optimizer")'],
        ),
        (EQX_STEP, False, ['@eqx.filter_jit(donate="all-except-first")']),
        (EQX_TRAIN, False, ['@eqx.filter_jit(donate="all")']),
    ],
    ids=["nnx-safe", "nnx-unsafe", "eqx", "eqx-train"],
)
def test_donating_rewrite_computes_the_same(source: str, unsafe: bool, written: list[str]) -> None:
    result = rewrite(source, ("AO201",), unsafe=unsafe)
    assert all(text in result.new_source for text in written), result.new_source
    assert_same(run_snippet(source), run_snippet(result.new_source))


def test_a_module_class_of_the_file_storing_new_buffers_is_donated() -> None:
    """`Counter.__init__` stores one new array: donated safely, results unchanged; the
    same class storing one array in two variables is not (tied weights)."""
    result = rewrite(NNX_STEP, ("AO201",))
    assert 'donate_argnames=("counter",)' in result.new_source
    (finding,) = [f for f in result.findings if f.target == "count"]
    assert finding.fix.value == "safe"
    assert_same(run_snippet(NNX_STEP), run_snippet(result.new_source))
    tied = NNX_STEP.replace(
        "        self.count = nnx.Variable(jnp.zeros(4))",
        "        w = jnp.zeros(4)\n        self.count = nnx.Variable(w)\n"
        "        self.twin = nnx.Variable(w)",
    )
    (finding,) = [f for f in rewrite(tied, ("AO201",)).findings if f.target == "count"]
    assert finding.fix.value == "none"
    assert "`Counter.w` fills two leaves of `counter`" in finding.message


def test_the_train_step_donates_the_model_and_its_optimizer() -> None:
    """`nnx.Optimizer(net, optax.adam(...))` holds none of `net`'s arrays and new buffers
    besides (`facts/nnx_optimizers.py`): both are donated safely (issue 26; before, an
    unproven premise: "`optimizer` is built from `net` and passed in the same call")."""
    (finding,) = [f for f in rewrite(NNX_STEP, ("AO201",)).findings if f.target == "train_step"]
    assert finding.fix.value == "safe"
    assert finding.message == (
        "`model`, `optimizer` are dead after every call of `train_step` and replaced by its "
        "output (a module: written back in place): donate them (`donate_argnames`) so XLA "
        "reuses the buffer"
    )


def test_fresh_batches_dead_after_the_call_let_equinox_donate_all() -> None:
    """The batch is dead after each call, and the model (an `eqx.nn.MLP` built from
    literals and a key) and the optimizer state (`optax.adam(...).init`) are fresh,
    distinct buffers (`facts/fresh.py`): `donate="all"` is proven."""
    (finding,) = rewrite(EQX_TRAIN, ("AO201",)).findings
    assert finding.fix.value == "safe"
    assert 'donate (`donate="all"`)' in finding.message
