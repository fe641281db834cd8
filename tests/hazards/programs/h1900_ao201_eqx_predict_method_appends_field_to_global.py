"""equinox: the model's `predict` method logs its weight for a plot
(`WEIGHT_HISTORY.append(self.w)`, a module-level list) before it computes; the loop
calls `model.predict(probe)` after each `eqx.filter_jit` step with a fresh probe and
returns the history. Trap for AO201 (`donate="all-except-first"`): donating the
model at the next step deletes the weight arrays the history holds."""

import equinox as eqx
import jax
import jax.numpy as jnp
import optax

WEIGHT_HISTORY = []


class Model(eqx.Module):
    w: jax.Array
    b: jax.Array

    def __init__(self, key):
        self.w = jax.random.normal(key, (2,))
        self.b = jnp.zeros(())

    def __call__(self, x):
        return x @ self.w + self.b

    def predict(self, x):
        WEIGHT_HISTORY.append(self.w)
        return self(x)


OPT = optax.sgd(0.1)


@eqx.filter_jit
def make_step(model, opt_state, x, y):
    def loss_fn(m):
        return jnp.mean((jax.vmap(m)(x) - y) ** 2)

    loss, grads = eqx.filter_value_and_grad(loss_fn)(model)
    updates, opt_state = OPT.update(grads, opt_state)
    return eqx.apply_updates(model, updates), opt_state, loss


def main():
    model = Model(jax.random.PRNGKey(0))
    x = jnp.array([[1.0, 0.0], [0.0, 1.0]])
    y = jnp.array([2.0, -1.0])
    opt_state = OPT.init(eqx.filter(model, eqx.is_array))
    preds = []
    for _ in range(4):
        model, opt_state, _ = make_step(model, opt_state, x, y)
        preds.append(float(model.predict(jnp.ones(2))))
    return preds, WEIGHT_HISTORY
