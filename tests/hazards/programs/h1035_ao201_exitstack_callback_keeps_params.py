"""Training inside a `contextlib.ExitStack`; a report of the starting parameters is
registered up front with `stack.callback(report, "initial", params)`, to run when the
block ends. Trap for AO201: the callback holds the initial `params`, which the first
step would donate; it runs after training."""

import contextlib

import jax
import jax.numpy as jnp


@jax.jit
def step(params, x):
    return params - 0.3 * jax.grad(lambda p: jnp.sum((p - x) ** 2))(params)


def main():
    reports = {}

    def report(tag, p):
        reports[tag] = jnp.sum(p**2)

    params = jnp.array([1.0, -2.0, 0.5])
    with contextlib.ExitStack() as stack:
        stack.callback(report, "initial", params)
        for k in range(5):
            params = step(params, jnp.full(3, 0.1 * k))
        report("final", params)
    return reports
