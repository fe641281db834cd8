"""equinox full-batch training: the "loader" is a generator that yields the whole
dataset `(X, Y)` once per epoch, the same arrays every time. Trap for AO201's
`eqx.filter_jit(donate="all")`: the batch is not new buffers each iteration; donating it
deletes `X`, and the next epoch yields the deleted array."""

import equinox as eqx
import jax
import jax.numpy as jnp
import optax


def full_batches(X, Y, epochs):
    for _ in range(epochs):
        yield X, Y


opt = optax.sgd(0.1)


@eqx.filter_jit
def make_step(model, opt_state, x, y):
    def loss_fn(m):
        return jnp.mean((jax.vmap(m)(x) - y) ** 2)

    loss, grads = eqx.filter_value_and_grad(loss_fn)(model)
    updates, opt_state = opt.update(grads, opt_state, model)
    return eqx.apply_updates(model, updates), opt_state, loss


def main():
    model = eqx.nn.Linear(2, 1, key=jax.random.PRNGKey(0))
    opt_state = opt.init(eqx.filter(model, eqx.is_array))
    X = jnp.array([[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]])
    Y = jnp.array([[1.0], [-1.0], [0.0]])
    for x, y in full_batches(X, Y, 4):
        model, opt_state, loss = make_step(model, opt_state, x, y)
    return model.weight, loss
