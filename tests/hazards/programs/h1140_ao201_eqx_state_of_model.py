"""equinox: `state = eqx.nn.State(model)` (not `make_with_state`) collects the initial
values the model's BatchNorm keeps, the very buffers, and both are replaced by the
output of one `eqx.filter_jit` step. Trap for AO201 (`donate="all-except-first"`):
donating the model and the state donates those buffers twice, and XLA refuses."""

import equinox as eqx
import jax
import jax.numpy as jnp


class Net(eqx.Module):
    linear: eqx.nn.Linear
    norm: eqx.nn.BatchNorm

    def __init__(self, key):
        self.linear = eqx.nn.Linear(3, 4, key=key)
        self.norm = eqx.nn.BatchNorm(4, "batch", mode="batch")

    def __call__(self, x, state):
        return self.norm(self.linear(x), state)


def loss_fn(model, state, xs):
    out, state = jax.vmap(model, axis_name="batch", in_axes=(0, None), out_axes=(0, None))(
        xs, state
    )
    return jnp.mean(out**2), state


@eqx.filter_jit
def step(xs, model, state):
    (loss, state), grads = eqx.filter_value_and_grad(loss_fn, has_aux=True)(model, state, xs)
    return eqx.apply_updates(model, jax.tree.map(lambda g: -0.1 * g, grads)), state, loss


def main():
    model = Net(jax.random.key(0))
    state = eqx.nn.State(model)
    xs = jnp.arange(12.0).reshape(4, 3) / 10.0
    for _ in range(3):
        model, state, loss = step(xs, model, state)
    return model.linear.weight, loss
