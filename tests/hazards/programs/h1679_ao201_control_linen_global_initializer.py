"""Control for h1677: a module-level `KERNEL = nn.initializers.lecun_normal()`, given
constants only and bound nowhere else, handed to `nn.Dense(2, kernel_init=KERNEL)`: the
initializer written in place, which makes a new kernel. AO201 donates `params` safely;
`W0` is no leaf of it."""

import flax.linen as nn
import jax
import jax.numpy as jnp

W0 = jnp.array([[0.2, -0.1], [0.4, 0.3], [0.0, 0.1]], dtype=jnp.float32)
KERNEL = nn.initializers.lecun_normal()


class Head(nn.Module):
    @nn.compact
    def __call__(self, x):
        return nn.Dense(2, kernel_init=KERNEL)(x)


model = Head()


@jax.jit
def train_step(params, x, y):
    grads = jax.grad(lambda p: jnp.mean((model.apply(p, x) - y) ** 2))(params)
    return jax.tree.map(lambda p, g: p - 0.1 * g, params, grads)


def main():
    x = jnp.array([[1.0, 0.0, 1.0], [0.0, 1.0, 1.0]])
    y = jnp.array([[1.0, 0.0], [0.0, 1.0]])
    params = model.init(jax.random.PRNGKey(0), x)
    for _ in range(3):
        params = train_step(params, x, y)
    return params, jnp.sum((params["params"]["Dense_0"]["kernel"] - W0) ** 2)
