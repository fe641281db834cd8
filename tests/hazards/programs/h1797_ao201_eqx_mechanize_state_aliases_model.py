"""equinox: an `eqx.filter_jit` step with `optax.contrib.mechanize(optax.sgd(...))`,
whose state keeps a reference copy of the parameters (`params_ref`) that is the very
arrays passed to `init`. Trap for AO201 (`donate="all"`): donating the model and the
optimizer state donates the same buffers twice at the first step."""

import equinox as eqx
import jax
import jax.numpy as jnp
import optax


class Affine(eqx.Module):
    a: jax.Array
    b: jax.Array

    def __call__(self, x):
        return self.a * x + self.b


optim = optax.contrib.mechanize(optax.sgd(0.1))


@eqx.filter_jit
def make_step(model, opt_state, x, y):
    loss, grads = eqx.filter_value_and_grad(lambda m: jnp.mean((m(x) - y) ** 2))(model)
    updates, opt_state = optim.update(grads, opt_state, model)
    return eqx.apply_updates(model, updates), opt_state, loss


def main():
    model = Affine(jnp.array([0.5, 1.5]), jnp.zeros(2))
    opt_state = optim.init(eqx.filter(model, eqx.is_array))
    x = jnp.array([1.0, 2.0])
    y = jnp.array([2.0, 1.0])
    for _ in range(3):
        model, opt_state, loss = make_step(model, opt_state, x, y)
    return model.a, model.b, loss
