"""AO103 examples, the whole loop as one jitted `lax.scan` of the step, in a function and in
module code (where the scan also carries the temporaries the body leaves as globals).
"""

from autoopt.rules.base import Invalid

MODULE_DESCENT = Invalid(
    """
import jax.numpy as jnp

w = jnp.ones(3)
target = jnp.arange(3.0)
for _ in range(10):
    grad = 2 * (w - target)
    w = w - 0.1 * grad
print(w)
""",
    expected="""
import functools

import jax
import jax.numpy as jnp

w = jnp.ones(3)
target = jnp.arange(3.0)


@functools.partial(jax.jit, donate_argnames=("w",))
def _loop(w):
    def body(carry, _):
        w, grad = carry
        grad = 2 * (w - target)
        w = w - 0.1 * grad
        return (w, grad), None

    return jax.lax.scan(body, (w, jnp.zeros_like(w)), length=10)[0]


w, grad = _loop(w)
_ = 9
print(w)
""",
    message="it carries `grad` too, for the last values the loop leaves as globals",
)


STACKED_ENERGY = Invalid(
    """
import jax.numpy as jnp

N_STEPS = 300


def advance(u, dt):
    return u + dt * (jnp.roll(u, 1) - 2 * u + jnp.roll(u, -1))


def simulate(u0):
    u = jnp.asarray(u0, jnp.float32)
    energy = []
    for _ in range(N_STEPS):
        u = advance(u, 0.1)
        energy.append(jnp.sum(u**2))  # one value per step
    return u, jnp.stack(energy)


def main():
    return simulate(jnp.sin(jnp.arange(16.0)))
""",
    expected="""
import jax
import jax.numpy as jnp

N_STEPS = 300


def advance(u, dt):
    return u + dt * (jnp.roll(u, 1) - 2 * u + jnp.roll(u, -1))


@jax.jit
def _simulate_loop(u):
    def body(u, _):
        u = advance(u, 0.1)
        energy_item = jnp.sum(u**2)  # one value per step
        return u, energy_item

    return jax.lax.scan(body, u, length=N_STEPS)


def simulate(u0):
    u = jnp.asarray(u0, jnp.float32)
    energy = []
    u, energy = _simulate_loop(u)
    return u, energy


def main():
    return simulate(jnp.sin(jnp.arange(16.0)))
""",
    message="run the whole loop as one jitted `lax.scan`, `_simulate_loop`",
)
