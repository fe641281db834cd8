"""Priority queue of the best scores kept with `heapq.heappush` on a plain list;
the list is transferred to compute a soft maximum each step."""

import heapq

import jax
import jax.numpy as jnp


def main():
    heap = [0.0]
    soft = []
    for t in range(7):
        heapq.heappush(heap, float((t * 37) % 11))
        soft.append(jax.nn.logsumexp(jnp.asarray(heap)))
    return jnp.stack(soft)
