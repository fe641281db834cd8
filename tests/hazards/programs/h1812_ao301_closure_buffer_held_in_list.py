"""flax linen + NumPy: `make_masker(shape)` keeps its NumPy mask in a one-element list
(`masks = [np.ones(shape)]`), returns `(resample, masks[0])`; `resample(step)` zeroes a
different column in place every call; the loop passes `jnp.asarray(mask)` to a jitted
linen step. Trap for AO301: the closure refills the mask the loop transfers through the
list; hoisting the transfer keeps the first mask."""

import flax.linen as nn
import jax
import jax.numpy as jnp
import numpy as np


def make_masker(shape):
    masks = [np.ones(shape, dtype=np.float64)]

    def resample(step):
        masks[0][:] = 1.0
        masks[0][:, step % shape[1]] = 0.0

    return resample, masks[0]


net = nn.Dense(1)


@jax.jit
def step(params, x, mask):
    grads = jax.grad(lambda p: jnp.mean((net.apply(p, x * mask) - 1.0) ** 2))(params)
    return jax.tree.map(lambda p, g: p - 0.1 * g, params, grads)


def main():
    x = jnp.arange(1.0, 7.0).reshape(2, 3) / 6.0
    params = net.init(jax.random.PRNGKey(0), x)
    resample, mask = make_masker((2, 3))
    for i in range(5):
        resample(i)
        params = step(params, x, jnp.asarray(mask))
    return params
