"""equinox: `eqx.nn.State(model)` of a model with `BatchNorm` holds the model's own
initial running statistics (the very buffers), and both go to one `eqx.filter_jit` step.
Trap for AO201 (`donate="all"`): one buffer would be donated twice."""

import equinox as eqx
import jax
import jax.numpy as jnp


class Net(eqx.Module):
    norm: eqx.nn.BatchNorm
    linear: eqx.nn.Linear

    def __init__(self, key):
        self.norm = eqx.nn.BatchNorm(3, axis_name="batch")
        self.linear = eqx.nn.Linear(3, 1, key=key)

    def __call__(self, x, state):
        x, state = self.norm(x, state)
        return self.linear(x), state


@eqx.filter_jit
def step(model, state, xs):
    def loss_fn(m, s):
        out, s = jax.vmap(m, axis_name="batch", in_axes=(0, None), out_axes=(0, None))(xs, s)
        return jnp.mean(out**2), s

    (loss, state), grads = eqx.filter_value_and_grad(loss_fn, has_aux=True)(model, state)
    model = eqx.apply_updates(model, jax.tree.map(lambda g: -0.1 * g, grads))
    return loss, model, state


def main():
    model = Net(jax.random.key(0))
    state = eqx.nn.State(model)
    xs = jnp.linspace(-1.0, 1.0, 12).reshape(4, 3)
    losses = []
    for _ in range(3):
        loss, model, state = step(model, state, xs)
        losses.append(loss)
    return losses
