"""flax linen: a module-level `KERNEL = nn.initializers.constant(W0)` handed to
`nn.Dense(2, kernel_init=KERNEL)`, `W0` of the kernel's shape: `jnp.full` of an array of
that shape is the array itself, so `init` returns `W0` as the kernel. A global bound to a
library initializer is the call written in place only where that call is given
constants. Trap for AO201: donating `params` deletes `W0`, read after training."""

import flax.linen as nn
import jax
import jax.numpy as jnp

W0 = jnp.array([[0.2, -0.1], [0.4, 0.3], [0.0, 0.1]], dtype=jnp.float32)
KERNEL = nn.initializers.constant(W0)


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
