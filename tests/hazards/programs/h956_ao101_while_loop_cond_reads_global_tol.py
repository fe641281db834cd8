"""A fixed-point solver `solve(x0)` built on `jax.lax.while_loop(not_converged, iterate,
...)`; `not_converged` reads the global tolerance `TOL`, tightened by `set_tol` between
solves (a continuation method). Trap for AO101: jitting `solve` keeps the first `TOL`,
read only inside the function handed to `while_loop`."""

import jax
import jax.numpy as jnp

TOL = 1e-1


def iterate(state):
    x, n = state
    return jnp.cos(x), n + 1


def not_converged(state):
    x, n = state
    return (jnp.max(jnp.abs(jnp.cos(x) - x)) > TOL) & (n < 100)


def solve(x0):
    return jax.lax.while_loop(not_converged, iterate, (x0, 0))


def set_tol(value):
    global TOL
    TOL = value


def main():
    x = jnp.array([0.0, 1.0])
    counts = []
    for tol in (1e-1, 1e-2, 1e-3):
        set_tol(tol)
        for _ in range(2):
            x, n = solve(x)
            counts.append(n)
    return x, jnp.stack(counts)
