"""A gymnax-style environment: `randomize_cars` fills a fresh car table row by row with
`cars.at[i, :].set(...)`, called only from the environment's `step`, which the program
runs under `jax.jit`. Trap for AO401's helper: traced, the update is in place already;
a helper there is worthless, so the fix is not safe (it names the caller). Under
`--unsafe-fixes` the jitted helper is inlined into the outer trace: results unchanged."""

import jax
import jax.numpy as jnp


def randomize_cars(speeds):
    cars = jnp.zeros((8, 4), dtype=jnp.int32)
    for i in range(8):
        cars = cars.at[i, :].set([0, i + 1, jnp.abs(speeds[i]), speeds[i]])
    return cars


class Freeway:
    def step(self, key):
        speeds = jax.random.randint(key, (8,), -5, 6)
        return randomize_cars(speeds).sum(axis=0)


def main():
    env = Freeway()
    step = jax.jit(env.step)
    return [step(jax.random.PRNGKey(k)) for k in range(3)]
