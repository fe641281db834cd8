"""flax linen: a BatchNorm model whose `model.init` result is split into `params` and
`batch_stats`; the initial statistics are kept in `init_stats` for a report; the jitted
step replaces both. Trap for AO201: donating `batch_stats` deletes the initial
statistics the report reads."""

import flax.linen as nn
import jax
import jax.numpy as jnp


class BNNet(nn.Module):
    @nn.compact
    def __call__(self, x, train):
        x = nn.Dense(3)(x)
        return nn.BatchNorm(use_running_average=not train, momentum=0.5)(x)


net = BNNet()


@jax.jit
def step(params, batch_stats, x):
    def loss_fn(p):
        out, updates = net.apply(
            {"params": p, "batch_stats": batch_stats}, x, True, mutable=["batch_stats"]
        )
        return jnp.mean(out**2), updates["batch_stats"]

    (loss, new_stats), grads = jax.value_and_grad(loss_fn, has_aux=True)(params)
    params = jax.tree.map(lambda p, g: p - 0.1 * g, params, grads)
    return params, new_stats, loss


def main():
    x = jnp.arange(12.0).reshape(4, 3) / 6.0
    variables = net.init(jax.random.PRNGKey(0), x, False)
    params, batch_stats = variables["params"], variables["batch_stats"]
    init_stats = batch_stats
    for _ in range(3):
        params, batch_stats, loss = step(params, batch_stats, x)
    return loss, jax.tree.map(lambda a, b: a - b, batch_stats, init_stats)
