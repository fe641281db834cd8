"""equinox: a "zero-bias" variant of the model made with `eqx.tree_at` (it shares the
weight array with the model) is kept for a comparison; the `filter_jit` step replaces
the model. Trap for AO201 (`donate="all"`): donating the model deletes the weight the
variant shares."""

import equinox as eqx
import jax
import jax.numpy as jnp


class Affine(eqx.Module):
    w: jax.Array
    b: jax.Array

    def __call__(self, x):
        return self.w * x + self.b


@eqx.filter_jit
def make_step(model, x, y):
    grads = eqx.filter_grad(lambda m: jnp.sum((m(x) - y) ** 2))(model)
    return eqx.apply_updates(model, jax.tree.map(lambda g: -0.1 * g, grads))


def main():
    model = Affine(jnp.array([1.0, 2.0]), jnp.array([0.5, 0.5]))
    no_bias = eqx.tree_at(lambda m: m.b, model, jnp.zeros(2))
    x = jnp.array([1.0, -1.0])
    y = jnp.array([0.0, 0.0])
    for _ in range(3):
        model = make_step(model, x, y)
    return model(x), no_bias(x)
