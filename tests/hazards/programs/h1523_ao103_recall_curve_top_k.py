"""Recall@k curve computed in an eager loop over k with `jax.lax.top_k`, with a running area."""

import jax
import jax.numpy as jnp


def main():
    scores = jax.random.normal(jax.random.PRNGKey(4), (24,))
    labels = (jax.random.uniform(jax.random.PRNGKey(5), (24,)) > 0.7).astype(jnp.float32)
    total = jnp.sum(labels)
    area = jnp.zeros(())
    for k in range(1, 8):
        _, top = jax.lax.top_k(scores, k)
        recall = jnp.sum(jnp.take(labels, top)) / total
        area = area + recall / 7
    return area
