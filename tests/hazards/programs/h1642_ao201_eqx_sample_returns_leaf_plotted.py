"""equinox: the latent-ODE loop (issue 26). Every few steps the model's `sample` is
plotted, and `sample` returns the model's own weight as it is; the plotter keeps what it
is given and sums it after training. Trap for AO201 (`donate="all"`): donating `model`
deletes the weight the plotter still holds."""

import equinox as eqx
import jax
import jax.numpy as jnp


class Decoder(eqx.Module):
    weight: jax.Array

    def sample(self, ts):
        return self.weight


class Plotter:
    def __init__(self):
        self.lines = []

    def plot(self, xs, ys):
        self.lines.append((xs, ys))

    def total(self):
        return sum(jnp.sum(ys) for _, ys in self.lines)


@eqx.filter_jit
def make_step(model, x):
    return eqx.tree_at(lambda m: m.weight, model, model.weight - 0.1 * x)


def main():
    model = Decoder(jnp.arange(4.0))
    x = jnp.ones(4)
    ax = Plotter()
    for step in range(4):
        model = make_step(model, x)
        if step % 2 == 0:
            ts = jnp.linspace(0.0, 1.0, 4)
            ax.plot(ts, model.sample(ts))
    return model.weight, ax.total()
