"""Gradient clipping written as a `jax.custom_vjp` identity whose backward rule clips
the cotangent to the module global `CLIP`, which the loop tightens over time. Trap for
AO101/AO103: jitting the step freezes `CLIP` inside the backward rule (traced once)."""

import jax
import jax.numpy as jnp

CLIP = 1.0


@jax.custom_vjp
def clip_grad(x):
    return x


def _fwd(x):
    return x, None


def _bwd(_, g):
    return (jnp.clip(g, -CLIP, CLIP),)


clip_grad.defvjp(_fwd, _bwd)


def loss(w, x, y):
    return jnp.mean((clip_grad(x @ w) - y) ** 2) * 10.0


def sgd_step(w, x, y):
    return w - 0.05 * jax.grad(loss)(w, x, y)


def main():
    global CLIP
    x = jnp.array([[3.0, 1.0], [1.0, 2.0], [-1.0, 4.0]])
    y = jnp.array([5.0, -3.0, 2.0])
    w = jnp.zeros(2)
    for i in range(10):  # noqa: B007
        w = sgd_step(w, x, y)
        CLIP = CLIP * 0.7
    return w
