"""A haiku-style SGD helper `sgd(params, grads)` that updates the params dict in place
through a local name (`p = params; p["w"] = ...`) and returns the new weights' sum. Trap
for AO101: jitted, the function receives a copy of the dict rebuilt from tracers, so the
caller's `params` never changes and every call starts from the first weights."""

import jax.numpy as jnp


def sgd(params, grads):
    p = params
    p["w"] = p["w"] - 0.1 * grads["w"]
    return jnp.sum(p["w"])


def main():
    params = {"w": jnp.ones(3)}
    grads = {"w": jnp.full(3, 0.5)}
    total = jnp.zeros(())
    for _ in range(20):
        total = total + sgd(params, grads)
    return params["w"], total
