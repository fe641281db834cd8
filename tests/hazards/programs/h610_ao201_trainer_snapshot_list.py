"""A trainer that keeps a snapshot of its state every 3 steps in a list attribute,
`self.snapshots.append(self.state)`, and reports how far training moved from each.
Trap for AO201 on attribute targets: the next step donating `self.state` deletes the
buffer the snapshot list holds."""

import jax
import jax.numpy as jnp


@jax.jit
def train_step(state, batch):
    w, b = state
    err = batch @ w + b - 1.0
    w = w - 0.1 * batch.T @ err / batch.shape[0]
    b = b - 0.1 * jnp.mean(err)
    return (w, b), jnp.mean(err**2)


class Trainer:
    def __init__(self, dim):
        self.state = (jnp.zeros(dim), jnp.zeros(()))
        self.snapshots = []

    def fit(self, batches):
        for step, batch in enumerate(batches):
            self.state, loss = train_step(self.state, batch)
            if step % 3 == 0:
                self.snapshots.append(self.state)
        return loss

    def drift(self):
        w, _ = self.state
        return [float(jnp.linalg.norm(w - sw)) for sw, _ in self.snapshots]


def main():
    trainer = Trainer(3)
    batches = [jnp.linspace(-1.0, 1.0, 6).reshape(2, 3) * (1 + k % 4) for k in range(10)]
    loss = trainer.fit(batches)
    print("drift", [round(d, 5) for d in trainer.drift()])
    return loss, trainer.state
