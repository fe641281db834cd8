"""equinox: a frozen reference model made with `jax.lax.stop_gradient` over the model's
arrays (`ref = jax.tree.map(jax.lax.stop_gradient, model)`), which eagerly returns the
same arrays; the `filter_jit` step replaces the model. Trap for AO201 (`donate="all"`):
donating the model deletes the reference's arrays, read after training."""

import equinox as eqx
import jax
import jax.numpy as jnp


class Linear(eqx.Module):
    w: jax.Array
    b: jax.Array

    def __call__(self, x):
        return self.w @ x + self.b


@eqx.filter_jit
def make_step(model, x, y):
    grads = eqx.filter_grad(lambda m: jnp.sum((m(x) - y) ** 2))(model)
    return jax.tree.map(lambda p, g: p - 0.05 * g, model, grads)


def main():
    model = Linear(jnp.eye(2), jnp.zeros(2))
    ref = jax.tree.map(jax.lax.stop_gradient, model)
    x = jnp.array([1.0, 2.0])
    y = jnp.array([0.0, 1.0])
    for _ in range(3):
        model = make_step(model, x, y)
    return model(x), ref(x)
