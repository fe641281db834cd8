"""equinox: a module-level `evaluate(model, grid)` helper only calls a method of the
model, `model.predict(grid)`; that method appends the model's weight to a module-level
list for a later plot. The loop evaluates on a fresh grid after each `eqx.filter_jit`
step. Trap for AO201 (`donate="all-except-first"`): the helper's own body stores
nothing, but the method it calls does; donating the model at the next step deletes
the weights the list holds."""

import equinox as eqx
import jax
import jax.numpy as jnp
import optax

PLOTTED = []


class Model(eqx.Module):
    w: jax.Array
    b: jax.Array

    def __init__(self, key):
        self.w = jax.random.normal(key, (2,))
        self.b = jnp.zeros(())

    def __call__(self, x):
        return x @ self.w + self.b

    def predict(self, xs):
        PLOTTED.append(self.w)
        return jax.vmap(self)(xs)


def evaluate(model, grid):
    return jnp.mean(model.predict(grid))


OPT = optax.sgd(0.1)


@eqx.filter_jit
def make_step(model, opt_state, x, y):
    def loss_fn(m):
        return jnp.mean((jax.vmap(m)(x) - y) ** 2)

    loss, grads = eqx.filter_value_and_grad(loss_fn)(model)
    updates, opt_state = OPT.update(grads, opt_state)
    return eqx.apply_updates(model, updates), opt_state, loss


def main():
    model = Model(jax.random.PRNGKey(5))
    x = jnp.array([[1.0, 0.0], [0.0, 1.0]])
    y = jnp.array([2.0, -1.0])
    opt_state = OPT.init(eqx.filter(model, eqx.is_array))
    scores = []
    for _ in range(4):
        model, opt_state, _ = make_step(model, opt_state, x, y)
        scores.append(float(evaluate(model, jnp.ones((3, 2)))))
    return scores, PLOTTED
