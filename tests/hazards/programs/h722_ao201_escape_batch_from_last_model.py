"""Module-level training whose batch of iteration k is made, by unseen code, from the
model of iteration k - 1: it is that model's very `"w"`, read again after the step.
Trap for AO201's escape reading (issue 26): in a loop, what the body hands out runs
before the next call; donating `params` deletes the batch the loop then sums."""

import hazlib_escape
import jax
import jax.numpy as jnp


@jax.jit
def step(params, batch):
    return {"w": params["w"] * 0.5 + jnp.sum(batch)}


params = {"w": jnp.ones(3)}
seen = []
for _ in range(3):
    batch = hazlib_escape.make_batch(params)
    params = step(params, batch)
    seen.append(float(jnp.sum(batch)))
RESULT = (jnp.sum(params["w"]), seen)


def main():
    return RESULT
