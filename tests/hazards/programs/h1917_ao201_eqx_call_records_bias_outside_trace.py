"""equinox: the model's `__call__` records its bias whenever it runs eagerly (outside a
trace: `if not isinstance(x, jax.core.Tracer)`), a debugging aid kept in a
module-level list; the loop calls `model(probe)` on a fresh probe after each
`eqx.filter_jit` step, and training's traced calls record nothing. Trap for AO201
(`donate="all-except-first"`): donating the model at the next step deletes the biases
the list holds."""

import equinox as eqx
import jax
import jax.numpy as jnp
import optax

EAGER_BIASES = []


class Model(eqx.Module):
    w: jax.Array
    b: jax.Array

    def __init__(self, key):
        self.w = jax.random.normal(key, (2,))
        self.b = jnp.zeros(())

    def __call__(self, x):
        if not isinstance(x, jax.core.Tracer):
            EAGER_BIASES.append(self.b)
        return x @ self.w + self.b


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
        preds.append(float(model(jnp.ones(2))))
    return preds, EAGER_BIASES
