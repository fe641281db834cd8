"""An equinox loop over a `dataloader` generator that slices the device dataset in
order. The batch size (64) is larger than the dataset (24 rows), so `x[0:64]` is the
dataset itself: JAX returns the same array for a slice that covers it. Trap for AO201:
donating the batch to `eqx.filter_jit` deletes the dataset, sliced again next epoch."""

import equinox as eqx
import jax
import jax.numpy as jnp
import optax

OPT = optax.sgd(0.05)


def dataloader(arrays, batch_size):
    n = arrays[0].shape[0]
    start = 0
    while start < n:
        yield tuple(a[start : start + batch_size] for a in arrays)
        start += batch_size


@eqx.filter_jit
def make_step(model, opt_state, x, y):
    def loss_fn(m):
        return jnp.mean((jax.vmap(m)(x) - y) ** 2)

    loss, grads = eqx.filter_value_and_grad(loss_fn)(model)
    updates, opt_state = OPT.update(grads, opt_state)
    return eqx.apply_updates(model, updates), opt_state, loss


def main():
    xs = jnp.linspace(-1.0, 1.0, 48).reshape(24, 2)
    ys = xs[:, :1] * 2.0 - xs[:, 1:] + 0.5
    model = eqx.nn.Linear(2, 1, key=jax.random.PRNGKey(0))
    opt_state = OPT.init(eqx.filter(model, eqx.is_array))
    losses = []
    for _ in range(3):
        for x, y in dataloader((xs, ys), 64):
            model, opt_state, loss = make_step(model, opt_state, x, y)
            losses.append(loss)
    return jnp.stack(losses), model.weight
