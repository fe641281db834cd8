"""equinox: a `spectral_norm` property of the model records each weight it measures in
a module-level list (for a plot of the norm against the weights); the loop reads
`model.spectral_norm` after each `eqx.filter_jit` step, a plain attribute read that
runs the property's code. Trap for AO201 (`donate="all-except-first"`): donating the
model at the next step deletes the weights the list holds."""

import equinox as eqx
import jax
import jax.numpy as jnp
import optax

MEASURED = []


class Layer(eqx.Module):
    weight: jax.Array

    def __init__(self, key):
        self.weight = jax.random.normal(key, (3, 3))

    def __call__(self, x):
        return self.weight @ x

    @property
    def spectral_norm(self):
        MEASURED.append(self.weight)
        return jnp.linalg.norm(self.weight, ord=2)


OPT = optax.sgd(0.05)


@eqx.filter_jit
def make_step(model, opt_state, x, y):
    def loss_fn(m):
        return jnp.mean((jax.vmap(m)(x) - y) ** 2)

    loss, grads = eqx.filter_value_and_grad(loss_fn)(model)
    updates, opt_state = OPT.update(grads, opt_state)
    return eqx.apply_updates(model, updates), opt_state, loss


def main():
    model = Layer(jax.random.PRNGKey(3))
    x = jnp.eye(3)
    y = jnp.array([[1.0, 0.0, 0.0], [0.0, 2.0, 0.0], [0.0, 0.0, 0.5]])
    opt_state = OPT.init(eqx.filter(model, eqx.is_array))
    norms = []
    for _ in range(4):
        model, opt_state, _ = make_step(model, opt_state, x, y)
        norms.append(float(model.spectral_norm))
    return norms, MEASURED
