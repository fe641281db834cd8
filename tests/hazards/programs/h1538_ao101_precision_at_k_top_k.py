"""Retrieval metrics: precision@k with `jax.lax.top_k` for k in (1, 3, 5)."""

import jax
import jax.numpy as jnp


def precision_at_k(scores, relevant, k):
    _, idx = jax.lax.top_k(scores, k)
    return jnp.mean(relevant[idx])


def main():
    scores = jax.random.normal(jax.random.PRNGKey(0), (20,))
    relevant = (jax.random.uniform(jax.random.PRNGKey(1), (20,)) > 0.6).astype(jnp.float32)
    report = {}
    for k in (1, 3, 5):
        report[f"p@{k}"] = precision_at_k(scores, relevant, k)
    return report
