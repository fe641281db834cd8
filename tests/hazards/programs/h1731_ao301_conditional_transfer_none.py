"""The transfer of a class-weight table sits under `if weights is not None:` in the loop;
with no weights the table is `None` and the transfer never runs.
"""

import jax
import jax.numpy as jnp
import numpy as np


@jax.jit
def xent(logits, labels):
    return -jax.nn.log_softmax(logits)[jnp.arange(labels.shape[0]), labels]


def evaluate(batches, weights=None):
    total = 0.0
    for logits, labels in batches:
        per_ex = xent(logits, labels)
        if weights is not None:
            per_ex = per_ex * jnp.asarray(weights)[labels]
        total = total + per_ex.sum()
    return total


def main():
    logits = jnp.array([[1.0, 0.0, -1.0], [0.2, 0.3, 0.1]])
    labels = jnp.array([0, 2])
    batches = [(logits, labels), (logits * 2, labels)]
    plain = evaluate(batches)
    weighted = evaluate(batches, weights=np.array([1.0, 2.0, 0.5]))
    return plain, weighted
