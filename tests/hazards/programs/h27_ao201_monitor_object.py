"""Early-stopping style monitor: every fifth step the monitor keeps a reference to
the best parameters so far. Trap for AO201: the monitor object holds a buffer that the
next step's donation deletes; reading `monitor.best` afterwards fails."""

import jax
import jax.numpy as jnp
import numpy as np


class BestMonitor:
    def __init__(self):
        self.best = None
        self.best_loss = float("inf")

    def observe(self, params, loss):
        if loss < self.best_loss:
            self.best, self.best_loss = params, loss


def loss_fn(w, x, y):
    return jnp.mean((jnp.sin(x @ w) - y) ** 2)


@jax.jit
def train_step(w, x, y):
    loss, g = jax.value_and_grad(loss_fn)(w, x, y)
    return w - 0.3 * g, loss


def main():
    rng = np.random.default_rng(12)
    x = jnp.asarray(rng.normal(size=(40, 3)), jnp.float32)
    y = jnp.sin(x @ jnp.array([0.5, -0.3, 0.8]))
    w = jnp.zeros(3)
    monitor = BestMonitor()
    for step in range(24):
        w, loss = train_step(w, x, y)
        if step % 5 == 0:  # validate every fifth step
            monitor.observe(w, float(loss))
    return monitor.best, monitor.best_loss, w
