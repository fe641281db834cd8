"""Per-example preprocessing through a host-side tokenizer-like object whose method
looks up a Python dict per example. Trap for AO501: the function calls a method of a
non-array argument that needs concrete values; under vmap the example is a tracer."""

import jax.numpy as jnp


class Vocabulary:
    def __init__(self, words):
        self.index = {w: i for i, w in enumerate(words)}
        self.size = len(words)

    def one_hot(self, token_id):
        row = [0.0] * self.size
        row[int(token_id) % self.size] = 1.0
        return jnp.array(row)


def embed(token_id, vocab, table):
    return vocab.one_hot(token_id) @ table


def main():
    vocab = Vocabulary(["pad", "the", "cat", "sat"])
    table = jnp.arange(12.0).reshape(4, 3)
    token_ids = jnp.array([1, 2, 3, 2, 1])
    return jnp.stack([embed(t, vocab, table) for t in token_ids])
