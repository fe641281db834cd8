"""plain jax, model compression: `fake_quantize(w, step)` snaps weights to a grid with
the classic magic-number rounding trick, `(t + 1.5 * 2**23) - 1.5 * 2**23`, which
rounds a float32 to the nearest integer (the addition drops the fraction); a loop
quantizes each layer's weights and counts the distinct levels. Eagerly every operation
rounds, so the weights land on the grid. Trap for AO101: jitted, XLA's algebraic
simplifier folds `(t + C) - C` to `t`, so nothing is rounded: the weights stay
unquantized and the level counts change."""

import jax
import jax.numpy as jnp

MAGIC = 12582912.0


def fake_quantize(w, step):
    t = w / step
    q = (t + MAGIC) - MAGIC
    return q * step


def main():
    key = jax.random.PRNGKey(0)
    quantized = []
    levels = []
    for _ in range(3):
        key, sub = jax.random.split(key)
        w = jax.random.normal(sub, (16, 8)) * 0.1
        wq = fake_quantize(w, 0.05)
        quantized.append(wq)
        levels.append(int(jnp.unique(wq).size))
    return quantized, levels
