"""A plain Python class with `__call__` (a hand-written "layer" object) that prints its
output norm with `jax.debug.print`; a `lax.scan` body calls the object it closes over,
under `jax.value_and_grad`. Trap for AO601: the effect is in `Layer.__call__`, reached
through `layer(h, w)`; a checkpointed body prints every line again."""

import jax
import jax.numpy as jnp


class Layer:
    def __init__(self, slope):
        self.slope = slope

    def __call__(self, h, w):
        h = h + jax.nn.leaky_relu(h @ w, self.slope)
        jax.debug.print("norm {n:.4f}", n=jnp.linalg.norm(h))
        return h


LAYER = Layer(0.1)


def loss(ws, x):
    def body(h, w):
        return LAYER(h, w), None

    h, _ = jax.lax.scan(body, x, ws)
    return jnp.mean(h**2)


grad_step = jax.jit(jax.value_and_grad(loss))


def main():
    ws = jnp.stack([jnp.eye(3) * 0.2 * (k + 1) for k in range(4)])
    value, grads = grad_step(ws, jnp.linspace(-1.0, 1.0, 3))
    jax.effects_barrier()
    return value, grads
