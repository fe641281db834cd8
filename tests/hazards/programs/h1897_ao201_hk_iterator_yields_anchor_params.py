"""haiku L2-SP fine-tuning: the data iterator yields each batch with the anchor weights the
loss pulls towards, and the anchor is the initial `params` (the same arrays). The jitted
update replaces `params` every step; donating it deletes the anchor the iterator yields at
the next step."""

import haiku as hk
import jax
import jax.numpy as jnp
import optax


def forward(x):
    return hk.Linear(1)(jnp.tanh(hk.Linear(5)(x)))[:, 0]


net = hk.without_apply_rng(hk.transform(forward))
opt = optax.adam(0.02)


def batches(x, y, anchor, size):
    while True:
        for start in range(0, x.shape[0], size):
            yield x[start : start + size], y[start : start + size], anchor


@jax.jit
def update(params, opt_state, batch):
    x, y, anchor = batch

    def loss_fn(p):
        fit = jnp.mean((net.apply(p, x) - y) ** 2)
        pull = sum(
            jnp.sum((a - b) ** 2)
            for a, b in zip(jax.tree.leaves(p), jax.tree.leaves(anchor), strict=True)
        )
        return fit + 0.1 * pull

    loss, grads = jax.value_and_grad(loss_fn)(params)
    updates, opt_state = opt.update(grads, opt_state)
    return optax.apply_updates(params, updates), opt_state, loss


def main():
    x = jnp.linspace(-1.0, 1.0, 24).reshape(8, 3)
    y = jnp.sin(3 * x[:, 0])
    params = net.init(jax.random.PRNGKey(2), x)
    opt_state = opt.init(params)
    data = batches(x, y, params, 4)
    losses = []
    for _ in range(6):
        params, opt_state, loss = update(params, opt_state, next(data))
        losses.append(loss)
    return params, losses
