"""A Lightning-style `DataModule` whose `train_loader(prior)` method returns a nested
generator function yielding `(x, y, prior)`; the script passes the initial weights as
the prior of a proximal objective. Trap for AO201: every batch carries the parameter
buffer the step receives as `w`; donating `w` makes the first call use a buffer it
donates and leaves the later batches a deleted prior."""

import jax
import jax.numpy as jnp


class DataModule:
    def __init__(self, xs, ys, batch_size):
        self.xs, self.ys, self.batch_size = xs, ys, batch_size

    def train_loader(self, prior):
        def batches():
            for i in range(0, self.xs.shape[0], self.batch_size):
                yield self.xs[i : i + self.batch_size], self.ys[i : i + self.batch_size], prior

        return batches


@jax.jit
def map_step(w, x, y, prior):
    def neg_log_post(v):
        return jnp.mean((x @ v - y) ** 2) + 0.1 * jnp.sum((v - prior) ** 2)

    return w - 0.2 * jax.grad(neg_log_post)(w)


def main():
    dm = DataModule(
        jnp.linspace(-1.0, 1.0, 24).reshape(12, 2), jnp.linspace(0.0, 1.2, 12), batch_size=4
    )
    w = jnp.array([0.5, 0.5])
    loader = dm.train_loader(prior=w)
    for x, y, prior in loader():
        w = map_step(w, x, y, prior)
    return w
