"""Hyperparameters kept in a `types.SimpleNamespace`; a schedule hook changes them
with `setattr(cfg, name, value)`, the attribute name taken from a table."""

import types

import jax.numpy as jnp

cfg = types.SimpleNamespace(lr=0.2, wd=0.01)
SCHEDULE = [(4, "lr", 0.05), (8, "wd", 0.1)]


def sgd(w, g):
    return w - cfg.lr * (g + cfg.wd * w)


def on_epoch(epoch):
    for at, name, value in SCHEDULE:
        if epoch == at:
            setattr(cfg, name, value)


def main():
    w = jnp.array([1.0, 2.0, -1.0])
    for epoch in range(12):
        w = sgd(w, w - 0.5)
        on_epoch(epoch)
    return w
