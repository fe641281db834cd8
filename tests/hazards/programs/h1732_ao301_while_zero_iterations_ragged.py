"""A refinement `while` loop that runs zero times for a converged start; the table it
would transfer is ragged (a list of lists of different lengths) then.
"""

import jax.numpy as jnp


def refine(x, table, tol):
    it = 0
    while jnp.abs(x).max() > tol and it < 5:
        x = x * jnp.asarray(table)[0]
        it += 1
    return x, it


def main():
    done, n_done = refine(jnp.array([1e-4, 2e-4]), [[0.5, 0.5], [0.1]], 1e-3)
    work, n_work = refine(jnp.array([1.0, 2.0]), [[0.5, 0.25]], 1e-3)
    return done, n_done, work, n_work
