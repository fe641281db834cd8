"""flax linen: the parameter tree is flattened with `flax.traverse_util.flatten_dict`
before training, to print per-layer changes afterwards. The flat dict holds the same
arrays. Trap for AO201: donating `params` deletes the flat snapshot's arrays."""

import flax.linen as nn
import jax
import jax.numpy as jnp
from flax import traverse_util


class MLP(nn.Module):
    @nn.compact
    def __call__(self, x):
        return nn.Dense(1)(nn.relu(nn.Dense(3)(x)))


model = MLP()


@jax.jit
def train_step(params, x, y):
    grads = jax.grad(lambda p: jnp.mean((model.apply(p, x) - y) ** 2))(params)
    return jax.tree.map(lambda p, g: p - 0.05 * g, params, grads)


def main():
    x = jnp.linspace(-1.0, 1.0, 12).reshape(6, 2)
    y = x[:, :1] - x[:, 1:]
    params = model.init(jax.random.PRNGKey(0), x)
    flat0 = traverse_util.flatten_dict(params, sep="/")
    for _ in range(5):
        params = train_step(params, x, y)
    flat = traverse_util.flatten_dict(params, sep="/")
    for name in sorted(flat):
        print(name, round(float(jnp.abs(flat[name] - flat0[name]).max()), 5))
    return flat
