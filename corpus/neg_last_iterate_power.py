"""Power iteration for the dominant eigenpair of a random graph's Laplacian.

Negative for a whole-loop scan: `w` and `iterations` from the last iteration are
read after the loop (the eigenvalue estimate and the iteration count), so a scan that
carries only `v` loses them (and each `v` is built from the previous one).
"""

import jax.numpy as jnp
import numpy as np

N = 200
ITERS = 300


def make_matrix(seed=0):
    rng = np.random.default_rng(seed)
    adj = (rng.uniform(size=(N, N)) < 0.05).astype(np.float32)
    adj = np.triu(adj, 1)
    adj = adj + adj.T
    lap = np.diag(adj.sum(axis=1)) - adj
    return jnp.asarray(lap)


def main():
    m = make_matrix()
    v = jnp.ones(N) / np.sqrt(N)
    v = v.at[0].add(0.5)
    for step in range(ITERS):
        w = m @ v
        v = w / jnp.linalg.norm(w)
        iterations = step + 1
    eigenvalue = jnp.dot(v, w)
    return {"v": v, "eigenvalue": eigenvalue, "last_w": w, "iterations": jnp.asarray(iterations)}


if __name__ == "__main__":
    print(main())
