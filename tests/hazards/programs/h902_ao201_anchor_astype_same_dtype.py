"""L2-SP fine-tuning: the pretrained anchor is taken as `w.astype(jnp.float32)` of a
float32 array, which JAX returns unchanged, then passed to every step beside `w`. Trap
for AO201: donating `w` donates the anchor's buffer at the first call (passed twice in
one call), and the anchor is passed again at every later step."""

import jax
import jax.numpy as jnp


@jax.jit
def finetune_step(w, anchor, x, y):
    def loss(v):
        return jnp.mean((x @ v - y) ** 2) + 0.5 * jnp.sum((v - anchor) ** 2)

    return w - 0.2 * jax.grad(loss)(w)


def main():
    pretrained = jnp.array([0.5, -0.25, 1.0], dtype=jnp.float32)
    w = pretrained
    anchor = pretrained.astype(jnp.float32)
    x = jnp.eye(3)[:2] + 0.1
    y = jnp.array([2.0, -1.0])
    for _ in range(5):
        w = finetune_step(w, anchor, x, y)
    return w, jnp.sum((w - anchor) ** 2)
