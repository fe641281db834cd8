"""equinox: callbacks are objects in a list; an `EarlyStopping` callback's
`on_step(model, loss)` keeps the best model (`self.best = model`; the step size
overshoots, so the best is an early one); the loop calls every callback after each
`filter_jit` step and returns the best model's weight. Trap for
AO201 (`donate="all"`): donating the model at the next step deletes the arrays the
callback keeps."""

import equinox as eqx
import jax
import jax.numpy as jnp


class Model(eqx.Module):
    w: jax.Array


class EarlyStopping:
    def __init__(self):
        self.best = None
        self.best_loss = float("inf")

    def on_step(self, model, loss):
        if loss < self.best_loss:
            self.best, self.best_loss = model, loss


class Printer:
    def on_step(self, model, loss):
        print("loss", round(loss, 4))


@eqx.filter_jit
def make_step(model, x):
    loss, grads = eqx.filter_value_and_grad(lambda m: jnp.sum((m.w - x) ** 2))(model)
    return Model(model.w - 1.1 * grads.w), loss


def main():
    callbacks = [EarlyStopping(), Printer()]
    model = Model(jnp.zeros(2))
    x = jnp.array([1.0, -1.0])
    for _ in range(4):
        model, loss = make_step(model, x)
        for cb in callbacks:
            cb.on_step(model, float(loss))
    return callbacks[0].best.w, callbacks[0].best_loss
