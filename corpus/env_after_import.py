"""Logistic-map style population model with diffusion between patches.

Run script from the cluster notebook; the env settings below were copied from our GPU job template.
"""

import os
import time

import jax
import jax.numpy as jnp

# keep XLA from grabbing the whole GPU, and keep math strict for reproducibility
os.environ["XLA_PYTHON_CLIENT_PREALLOCATE"] = "false"
os.environ["XLA_FLAGS"] = "--xla_cpu_enable_fast_math=false"

N_PATCHES = 512
N_GEN = 300


def step(pop, growth, migration):
    # logistic growth within each patch ...
    grown = growth * pop * (1.0 - pop)
    # ... then a fraction migrates to the two neighbouring patches (ring)
    left = jnp.roll(grown, 1)
    right = jnp.roll(grown, -1)
    return (1.0 - migration) * grown + 0.5 * migration * (left + right)


def main():
    patches = jnp.arange(N_PATCHES, dtype=jnp.float32)
    growth = 2.8 + 0.4 * jnp.sin(2 * jnp.pi * patches / N_PATCHES)
    pop = 0.1 + 0.05 * jnp.cos(patches)
    migration = 0.1

    totals = []
    t0 = time.perf_counter()
    for _ in range(N_GEN):
        pop = step(pop, growth, migration)
        totals.append(pop.sum())
    jax.block_until_ready(pop)
    print(f"{N_GEN} generations in {time.perf_counter() - t0:.2f}s")
    return {"pop": pop, "totals": jnp.stack(totals)}


if __name__ == "__main__":
    print(main())
