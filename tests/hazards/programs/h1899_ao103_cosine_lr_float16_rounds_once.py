"""Mixed-precision (float16) fine-tuning resumed at step 74 of a 120-step cosine schedule:
the rate is a Python float computed once before the loop
(`lr = 0.5 * base * (1 + cos(pi * start / total))`), and the loop body, after a host block
that prints every 5 steps, converts it with `jnp.asarray(lr, dtype=w.dtype)` before the
jitted gradient and the update. Eagerly the float64 rate rounds once to float16 (0.00962);
passed to a jitted step as a Python float argument it becomes a float32 first and rounds
twice (0.00963), so every update, the printed rate and the returned weights change. Trap
for AO103: compiling the device work must not turn the Python float into a traced
argument."""

import math

import jax
import jax.numpy as jnp


@jax.jit
def grad_fn(w, x, y):
    return jax.grad(lambda v: jnp.mean((x @ v - y) ** 2))(w)


def main():
    x = jnp.linspace(-1.0, 1.0, 15).reshape(5, 3).astype(jnp.float16)
    y = jnp.array([1.0, 0.0, -1.0, 0.5, 0.25], jnp.float16)
    w = jnp.zeros(3, jnp.float16)
    base, total, start = 0.03, 120, 74
    lr = 0.5 * base * (1 + math.cos(math.pi * start / total))
    for step in range(20):
        if step % 5 == 0:
            print(step, f"{float(jnp.sum(w)):.6f}")
        lr16 = jnp.asarray(lr, dtype=w.dtype)
        g = grad_fn(w, x, y)
        w = w - lr16 * g
    print("final rate", repr(float(lr16)))
    return w.astype(jnp.float32), float(lr16)
