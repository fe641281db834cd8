"""Per-example feature encoding that special-cases scalar inputs with `isinstance` on
the value (`float` examples come from a legacy path) and otherwise normalises. Trap
for AO501: under vmap every example is a tracer, so the dispatch on the value's type
goes the other way (or fails) for what were Python floats."""

import jax.numpy as jnp


def encode(example, scale):
    if isinstance(example, float):
        return jnp.full((3,), example * scale)
    return example / (jnp.linalg.norm(example) + 1e-6) * scale


def main():
    examples = jnp.arange(1.0, 13.0).reshape(4, 3)
    encoded = []
    for ex in examples:
        encoded.append(encode(ex, 2.0))
    batch = jnp.stack(encoded)
    legacy = jnp.stack([encode(v, 2.0) for v in jnp.array([0.5, 1.5]).tolist()])
    return batch, legacy
