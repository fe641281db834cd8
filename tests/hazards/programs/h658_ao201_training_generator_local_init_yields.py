"""Training written as a generator that starts its own parameters and yields them after
every step, so the caller can plot the trajectory: `trajectory =
list(training_run(batches))`. Trap for AO201: inside the generator `params` is a fresh
local rebound by each call's output, but every value it yields is kept by the caller;
donating `params` at the next step deletes every point of the trajectory but the
last."""

import jax
import jax.numpy as jnp


@jax.jit
def train_step(params, batch):
    x, y = batch
    grad = jax.grad(lambda w: jnp.mean((x @ w - y) ** 2))(params)
    return params - 0.2 * grad


def training_run(batches):
    params = jnp.zeros(2)
    for batch in batches:
        params = train_step(params, batch)
        yield params


def main():
    x = jnp.linspace(-1.0, 1.0, 8).reshape(4, 2)
    batches = [(x, x @ jnp.array([1.0, -1.0]) * (1 + 0.1 * k)) for k in range(5)]
    trajectory = list(training_run(batches))
    print("steps", len(trajectory))
    return jnp.stack(trajectory)
