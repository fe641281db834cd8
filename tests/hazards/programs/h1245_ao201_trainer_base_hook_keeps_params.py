"""A trainer derived from a base class of another project module; the base's
`after_step` hook keeps `self.state["w"]` every second step. Trap for AO201: donating
`self.state` deletes the kept snapshots, averaged after training."""

import jax
import jax.numpy as jnp
from hazlib_blind4_base import BaseTrainer


@jax.jit
def train_step(state, x):
    w = state["w"] - 0.1 * (state["w"] - x)
    return {"w": w, "n": state["n"] + 1}


class Trainer(BaseTrainer):
    def __init__(self):
        self.state = {"w": jnp.zeros(3), "n": jnp.zeros((), jnp.int32)}
        self.snapshots = []

    def fit(self, xs):
        for i, x in enumerate(xs):
            self.state = train_step(self.state, x)
            self.after_step(i)


def main():
    trainer = Trainer()
    trainer.fit([jnp.array([1.0, 2.0, 3.0])] * 6)
    return jnp.mean(jnp.stack(trainer.snapshots), axis=0), trainer.state["n"]
