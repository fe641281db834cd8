"""flax linen: `KERNEL = nn.initializers.zeros` at module level, but `warm_start()`
rebinds it (`global KERNEL`) to `nn.initializers.constant(W0)` before the model is
initialised, so `init` returns `W0` itself as the kernel. A global is the initializer
written in place only where nothing rebinds it. Trap for AO201: donating `params`
deletes `W0`, read after training."""

import flax.linen as nn
import jax
import jax.numpy as jnp

W0 = jnp.array([[0.2, -0.1], [0.4, 0.3], [0.0, 0.1]], dtype=jnp.float32)
KERNEL = nn.initializers.zeros


def warm_start():
    global KERNEL
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
    warm_start()
    x = jnp.array([[1.0, 0.0, 1.0], [0.0, 1.0, 1.0]])
    y = jnp.array([[1.0, 0.0], [0.0, 1.0]])
    params = model.init(jax.random.PRNGKey(0), x)
    for _ in range(3):
        params = train_step(params, x, y)
    return params, jnp.sum((params["params"]["Dense_0"]["kernel"] - W0) ** 2)
