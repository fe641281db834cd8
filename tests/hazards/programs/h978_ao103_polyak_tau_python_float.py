"""Soft target-network updates in an eager loop with `tau = 1e-5` subtracted from one in
Python: `keep = 1.0 - tau` is computed once before the loop, double precision. Trap
for AO103: a compiled step takes `keep` as a traced float32, where `1 - 1e-5`
rounds to 0.99998999, and `(1 - keep)` inside the step is 0.14% off; the target moves
by a visibly different amount."""

import jax.numpy as jnp


def main():
    tau = 1e-5
    keep = 1.0 - tau
    online = jnp.array([10.0, -20.0, 5.0])
    target = jnp.zeros(3)
    for _ in range(5):
        online = online * 1.01
        target = keep * target + (1.0 - keep) * online
    return target
