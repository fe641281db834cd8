"""equinox: a logger made by a factory keeps what it is given in a closure cell
(`make_logger()` returns `log` and `history`, both closing over one list); the model's
`report(x)` method logs its own weight through it; the loop reports after each
`eqx.filter_jit` step and returns `history()`. Trap for AO201
(`donate="all-except-first"`): donating the model at the next step deletes the
weights the closure's list holds."""

import equinox as eqx
import jax
import jax.numpy as jnp
import optax


def make_logger():
    entries = []

    def log(value):
        entries.append(value)

    def history():
        return list(entries)

    return log, history


log_weight, weight_history = make_logger()


class Model(eqx.Module):
    w: jax.Array

    def __init__(self):
        self.w = jnp.array([0.3, -0.2, 0.1])

    def __call__(self, x):
        return jnp.dot(x, self.w)

    def report(self, x):
        log_weight(self.w)
        return self(x)


OPT = optax.sgd(0.2)


@eqx.filter_jit
def make_step(model, opt_state, x, y):
    def loss_fn(m):
        return jnp.mean((jax.vmap(m)(x) - y) ** 2)

    loss, grads = eqx.filter_value_and_grad(loss_fn)(model)
    updates, opt_state = OPT.update(grads, opt_state)
    return eqx.apply_updates(model, updates), opt_state, loss


def main():
    model = Model()
    x = jnp.eye(3)
    y = jnp.array([1.0, 0.0, -1.0])
    opt_state = OPT.init(eqx.filter(model, eqx.is_array))
    outs = []
    for _ in range(4):
        model, opt_state, _ = make_step(model, opt_state, x, y)
        outs.append(float(model.report(jnp.ones(3))))
    return outs, weight_history()
