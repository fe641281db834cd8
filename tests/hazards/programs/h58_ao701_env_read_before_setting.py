"""Experiment script that records the XLA flags it started with (for its run log),
then adds a debugging flag. The record is read after `import jax` and before the
setting. Trap for AO701: moving the setting above `import jax` also moves it above
the line that reads the environment, so the recorded flags change."""

import os

import jax
import jax.numpy as jnp

STARTUP_FLAGS = os.environ.get("XLA_FLAGS", "")
os.environ["XLA_FLAGS"] = "--xla_cpu_enable_fast_math=false"


def main():
    x = jnp.linspace(0.0, 1.0, 8)
    return {"startup_flags": STARTUP_FLAGS, "result": jax.jit(jnp.exp)(x).sum()}
