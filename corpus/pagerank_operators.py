"""Personalised PageRank on a random directed graph, written with plain array operators.

No jax.numpy calls in the iteration: `@`, arithmetic, `.at[]` and array methods only.
The L1 change per sweep is kept to check the convergence rate afterwards.
"""

import jax.numpy as jnp
import numpy as np

N_NODES = 300
DAMPING = 0.85
N_SWEEPS = 500
SEEDS = np.array([3, 17, 42, 101])


def transition_matrix(adj):
    out_degree = adj.sum(axis=0, keepdims=True)
    return adj / out_degree.clip(min=1.0)


def sweep(rank, link, seeds, damping):
    spread = damping * (link @ rank)
    lost = 1.0 - spread.sum()  # teleport mass plus what leaked at dangling nodes
    restart = (rank * 0.0).at[seeds].set(1.0 / seeds.shape[0])
    new_rank = spread + lost * restart
    return new_rank, abs(new_rank - rank).sum()


def main():
    rng = np.random.default_rng(0)
    adj = (rng.random((N_NODES, N_NODES)) < 0.02).astype(np.float32)
    adj[:, :5] = 0.0  # a few dangling pages
    link = transition_matrix(jnp.asarray(adj))
    seeds = jnp.asarray(SEEDS)

    rank = jnp.ones(N_NODES) / N_NODES
    changes = []
    for _ in range(N_SWEEPS):
        rank, change = sweep(rank, link, seeds, DAMPING)
        changes.append(change)
    top = rank.argsort()[::-1][:10]
    return {"rank": rank, "l1_change": jnp.stack(changes), "top10": top}


if __name__ == "__main__":
    print(main())
