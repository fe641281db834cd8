"""AO103 examples, the step of the device work that follows a statement forming no step
(analysis/plans/tail_step.py): called where those lines stood, the `next(it)` calls
they make made by the loop just before it."""

from autoopt.rules.base import Invalid

#: Host bookkeeping begins the body: the two statements after it are the step (`x`, the
#: caller's array, is not donated).
AFTER_BOOKKEEPING = Invalid(
    """
import jax.numpy as jnp


def run(x):
    it = 0
    while it < 10:
        it += 1
        d = jnp.sin(x)
        x = x + 0.1 * d
    return x


def main():
    return run(jnp.ones(3))
""",
    expected="""
import jax
import jax.numpy as jnp


@jax.jit
def _run_step(x):
    d = jnp.sin(x)
    x = x + 0.1 * d
    return x


def run(x):
    it = 0
    while it < 10:
        it += 1
        x = _run_step(x)
    return x


def main():
    return run(jnp.ones(3))
""",
    message="compile its device work, from line 9, after `it += 1` (line 8), as one jitted "
    "step, `_run_step`",
)

#: A periodic evaluation begins the body (mnist_pruning's shape): the update after it is
#: the step, its batch drawn by the loop just before it; the host arithmetic on the loop
#: variable and the block after it stay in the loop.
AFTER_EVALUATION = Invalid(
    """
import jax
import jax.numpy as jnp


@jax.jit
def update(w, batch):
    return w - 0.1 * jnp.tanh(batch @ w)


def main():
    train = iter([jnp.full((4, 3), i / 10) for i in range(30)])
    w = jnp.ones(3)
    lr = jnp.asarray(1.0)
    for step in range(30):
        if step % 10 == 0:
            print(step, float(jnp.sum(w)))
        w = update(w, next(train))
        w = w * lr
        progress = min(step / 20, 1.0)
        if step % 5 == 0:
            lr = lr * (1.0 - 0.1 * progress)
    return w
""",
    expected="""
import functools

import jax
import jax.numpy as jnp


@jax.jit
def update(w, batch):
    return w - 0.1 * jnp.tanh(batch @ w)


@functools.partial(jax.jit, donate_argnames=("w",))
def _main_step(w, lr, train_next):
    w = update(w, train_next)
    w = w * lr
    return w


def main():
    train = iter([jnp.full((4, 3), i / 10) for i in range(30)])
    w = jnp.ones(3)
    lr = jnp.asarray(1.0)
    for step in range(30):
        if step % 10 == 0:
            print(step, float(jnp.sum(w)))
        train_next = next(train)
        w = _main_step(w, lr, train_next)
        progress = min(step / 20, 1.0)
        if step % 5 == 0:
            lr = lr * (1.0 - 0.1 * progress)
    return w
""",
    message="the loop calling `next(train)` just before it, as one jitted step, `_main_step`",
)

INVALID = (AFTER_BOOKKEEPING, AFTER_EVALUATION)
