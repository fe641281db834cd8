"""Loads h961's module by name with `importlib.import_module` and runs its `train` on
params it keeps and reads afterwards. Trap for AO201: the rewrite of h961 cannot see
this caller; donating `train`'s parameter deletes `start` here."""

import importlib

import jax.numpy as jnp


def main():
    trainer = importlib.import_module("h961_ao201_train_fn_imported_by_string")
    start = jnp.array([4.0, -4.0])
    final = trainer.train(start, [jnp.zeros(2), jnp.ones(2)])
    return final, start
