"""haiku fine-tuning of a head on a frozen trunk: the params are split with
`hk.data_structures.partition`, only `trainable` goes through the jitted update, and the
evaluation every other step rebuilds the full params with `hk.data_structures.merge` and
keeps them as a checkpoint when the loss improved. The checkpoints are returned: donating
`trainable` at the next step deletes the head arrays they hold."""

import haiku as hk
import jax
import jax.numpy as jnp
import optax


def forward(x):
    h = jax.nn.relu(hk.Linear(6, name="trunk")(x))
    return hk.Linear(1, name="head")(h)[:, 0]


net = hk.without_apply_rng(hk.transform(forward))
opt = optax.sgd(0.1)


def loss_of(trainable, frozen, x, y):
    params = hk.data_structures.merge(trainable, frozen)
    return jnp.mean((net.apply(params, x) - y) ** 2)


@jax.jit
def update(trainable, opt_state, frozen, x, y):
    loss, grads = jax.value_and_grad(loss_of)(trainable, frozen, x, y)
    updates, opt_state = opt.update(grads, opt_state)
    return optax.apply_updates(trainable, updates), opt_state, loss


eval_loss = jax.jit(loss_of)


def main():
    x = jnp.linspace(-2.0, 2.0, 24).reshape(8, 3)
    y = jnp.cos(x).sum(axis=1)
    params = net.init(jax.random.PRNGKey(3), x)
    trainable, frozen = hk.data_structures.partition(lambda m, n, v: m == "head", params)
    opt_state = opt.init(trainable)
    checkpoints, best_loss = [], float("inf")
    for step in range(6):
        trainable, opt_state, _ = update(trainable, opt_state, frozen, x, y)
        if step % 2 == 1:
            current = float(eval_loss(trainable, frozen, x, y))
            if current < best_loss:
                checkpoints.append(hk.data_structures.merge(trainable, frozen))
                best_loss = current
    return checkpoints, best_loss
