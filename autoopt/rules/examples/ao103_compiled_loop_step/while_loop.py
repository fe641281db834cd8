"""AO103 examples, a counted `while` loop (`i = 0; while i < N: ...; i += 1`) as one scan, and one
that is not counted, which keeps the step form.
"""

from autoopt.rules.base import Invalid

COUNTED_WHILE = Invalid(
    """
import jax.numpy as jnp

N_ITERS = 20


def main():
    a = jnp.ones((5, 4), jnp.float32)
    b = jnp.ones((5, 3), jnp.float32)
    x = jnp.zeros((4, 3), jnp.float32)
    iteration = 0
    while iteration < N_ITERS:
        gradient = a.T @ (a @ x - b)
        x = x - 0.01 * gradient
        iteration += 1
    return x, iteration
""",
    expected="""
import functools

import jax
import jax.numpy as jnp

N_ITERS = 20


@functools.partial(jax.jit, donate_argnames=("x",))
def _main_loop(x, a, b):
    def body(x, _):
        gradient = a.T @ (a @ x - b)
        x = x - 0.01 * gradient
        return x, None

    return jax.lax.scan(body, x, length=N_ITERS)[0]


def main():
    a = jnp.ones((5, 4), jnp.float32)
    b = jnp.ones((5, 3), jnp.float32)
    x = jnp.zeros((4, 3), jnp.float32)
    iteration = 0
    x = _main_loop(x, a, b)
    iteration = N_ITERS
    return x, iteration
""",
    message="run the whole loop as one jitted `lax.scan`, `_main_loop`",
)


WHILE_STEP_OF_TWO = Invalid(
    """
import jax.numpy as jnp

N_ITERS = 20


def main():
    a = jnp.ones((5, 4), jnp.float32)
    b = jnp.ones((5, 3), jnp.float32)
    x = jnp.zeros((4, 3), jnp.float32)
    iteration = 0
    while iteration < N_ITERS:
        gradient = a.T @ (a @ x - b)
        x = x - 0.01 * gradient
        iteration += 2
    return x, iteration
""",
    expected="""
import functools

import jax
import jax.numpy as jnp

N_ITERS = 20


@functools.partial(jax.jit, donate_argnames=("x",))
def _main_step(x, a, b):
    gradient = a.T @ (a @ x - b)
    x = x - 0.01 * gradient
    return x


def main():
    a = jnp.ones((5, 4), jnp.float32)
    b = jnp.ones((5, 3), jnp.float32)
    x = jnp.zeros((4, 3), jnp.float32)
    iteration = 0
    while iteration < N_ITERS:
        x = _main_step(x, a, b)
        iteration += 2
    return x, iteration
""",
    message="not the whole loop as one `lax.scan`: the loop's last statement is not "
    "`iteration += 1`",
)
