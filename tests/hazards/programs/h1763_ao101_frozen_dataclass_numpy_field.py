"""A frozen dataclass config holding a NumPy mask is handed to the update helper."""

import dataclasses

import jax
import jax.numpy as jnp
import numpy as np


@dataclasses.dataclass(frozen=True)
class Cfg:
    lr: float
    mask: np.ndarray


def update(w, g, cfg):
    return w - cfg.lr * g * cfg.mask


def main():
    cfg = Cfg(lr=0.1, mask=np.array([1.0, 0.0, 1.0], dtype=np.float32))
    w = jnp.ones(3)
    for _ in range(4):
        g = jax.grad(lambda w: jnp.sum(w**2))(w)
        w = update(w, g, cfg)
    return w
