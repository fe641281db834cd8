"""Mixed-precision (float16) SGD with a cosine schedule computed in Python every step; the
update helper converts the rate to the weights' dtype itself,
`w - jnp.asarray(lr, dtype=w.dtype) * g`. Eagerly the float64 rate rounds once to float16;
under `jax.jit` a Python float argument is a float32 first and rounds twice: at step 74 the
rate is 0.00963 instead of 0.00962, and every later weight moves. Trap for AO101: jitting
`apply_update` changes the rates it uses (printed) and the returned weights."""

import math

import jax
import jax.numpy as jnp


def apply_update(w, g, lr):
    rate = jnp.asarray(lr, dtype=w.dtype)
    return w - rate * g, rate


@jax.jit
def grad_fn(w, x, y):
    return jax.grad(lambda v: jnp.mean((x @ v - y) ** 2))(w)


def main():
    x = jnp.linspace(-1.0, 1.0, 15).reshape(5, 3).astype(jnp.float16)
    y = jnp.array([1.0, 0.0, -1.0, 0.5, 0.25], jnp.float16)
    w = jnp.zeros(3, jnp.float16)
    base, total = 0.03, 120
    for step in range(total):
        lr = 0.5 * base * (1 + math.cos(math.pi * step / total))
        g = grad_fn(w, x, y)
        w, rate = apply_update(w, g, lr)
        if step % 37 == 0:
            print(step, repr(float(rate)))
    return w.astype(jnp.float32)
