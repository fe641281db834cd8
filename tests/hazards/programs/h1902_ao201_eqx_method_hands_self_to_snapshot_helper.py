"""equinox: `model.evaluate(x)` calls a module-level helper with itself,
`checkpoint_in_memory(self)`, which appends the model's weight to a module-level list
of checkpoints (kept for a later pass that picks the one whose mean prediction
on the grid is highest, an early one); the loop evaluates on a fresh
grid after each `eqx.filter_jit` step. Trap for AO201 (`donate="all-except-first"`):
donating the model at the next step deletes the checkpointed weights."""

import equinox as eqx
import jax
import jax.numpy as jnp
import optax

CHECKPOINTS = []


def checkpoint_in_memory(model):
    CHECKPOINTS.append(model.w)


class Linear(eqx.Module):
    w: jax.Array
    b: jax.Array

    def __init__(self, key):
        self.w = jax.random.normal(key, (2,))
        self.b = jnp.zeros(())

    def __call__(self, x):
        return x @ self.w + self.b

    def evaluate(self, x):
        checkpoint_in_memory(self)
        return jnp.mean(jax.vmap(self)(x))


OPT = optax.sgd(0.1)


@eqx.filter_jit
def make_step(model, opt_state, x, y):
    def loss_fn(m):
        return jnp.mean((jax.vmap(m)(x) - y) ** 2)

    loss, grads = eqx.filter_value_and_grad(loss_fn)(model)
    updates, opt_state = OPT.update(grads, opt_state)
    return eqx.apply_updates(model, updates), opt_state, loss


def main():
    model = Linear(jax.random.PRNGKey(2))
    x = jnp.array([[1.0, 0.0], [0.0, 1.0]])
    y = jnp.array([2.0, -1.0])
    opt_state = OPT.init(eqx.filter(model, eqx.is_array))
    scores = []
    for _ in range(4):
        model, opt_state, _ = make_step(model, opt_state, x, y)
        scores.append(float(model.evaluate(jnp.linspace(-1.0, 1.0, 6).reshape(3, 2))))
    best = CHECKPOINTS[scores.index(max(scores))]
    return scores, best
