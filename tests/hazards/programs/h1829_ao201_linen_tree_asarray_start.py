"""flax linen: the initial params are kept as `start = jax.tree.map(jnp.asarray, params)`
("to be sure they are arrays"): `jnp.asarray` of a jax array returns it, so `start`
holds the same buffers; a jitted step replaces `params`. Trap for AO201: donating
`params` deletes `start`, read for a report after training."""

import flax.linen as nn
import jax
import jax.numpy as jnp


class Dense2(nn.Module):
    @nn.compact
    def __call__(self, x):
        return nn.Dense(2)(x)


net = Dense2()


@jax.jit
def step(params, x, y):
    grads = jax.grad(lambda p: jnp.mean((net.apply({"params": p}, x) - y) ** 2))(params)
    return jax.tree.map(lambda p, g: p - 0.1 * g, params, grads)


def main():
    x = jnp.array([[1.0, 0.0, 2.0]])
    y = jnp.array([[1.0, -1.0]])
    params = net.init(jax.random.PRNGKey(0), x)["params"]
    start = jax.tree.map(jnp.asarray, params)
    for _ in range(3):
        params = step(params, x, y)
    return jax.tree.map(lambda a, b: jnp.sum(a - b), params, start)
