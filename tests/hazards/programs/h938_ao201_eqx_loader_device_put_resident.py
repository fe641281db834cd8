"""equinox training with a loader class that keeps the dataset resident on the device and
yields `jax.device_put(self.x)` each epoch, meant as a "transfer"; on a device array it
returns the array itself. Trap for AO201's `eqx.filter_jit(donate="all")`: the yielded
batch is the loader's resident array; donating it breaks the next epoch."""

import equinox as eqx
import jax
import jax.numpy as jnp


class ResidentLoader:
    def __init__(self, x, y, epochs):
        self.x = jnp.asarray(x)
        self.y = jnp.asarray(y)
        self.epochs = epochs

    def __iter__(self):
        for _ in range(self.epochs):
            yield jax.device_put(self.x), jax.device_put(self.y)


@eqx.filter_jit
def step(model, x, y):
    def loss_fn(m):
        return jnp.mean((jax.vmap(m)(x) - y) ** 2)

    grads = eqx.filter_grad(loss_fn)(model)
    return jax.tree.map(lambda p, g: p - 0.1 * g, model, grads)


def main():
    model = eqx.nn.Linear(2, 1, key=jax.random.PRNGKey(1))
    loader = ResidentLoader([[1.0, 2.0], [2.0, 0.0]], [[1.0], [0.0]], 3)
    for x, y in loader:
        model = step(model, x, y)
    return model.weight, model.bias
