"""A haiku module class written with `super(Dense, self)` gives `hk.get_parameter` a
global initializer, `INIT = lambda shape, dtype: BASE`, that returns one global array
for every parameter it makes. Trap for AO201: a global read by the model is no data
value when it is callable; `init` returns `BASE` in two leaves, donated twice."""

import haiku as hk
import jax
import jax.numpy as jnp

BASE = jnp.full((3,), 0.5)
INIT = lambda shape, dtype: BASE  # noqa: E731


class Dense(hk.Module):
    def __init__(self, name=None):
        super(Dense, self).__init__(name=name)  # noqa: UP008 (the form under test)

    def __call__(self, x):
        return x * hk.get_parameter("w", [3], init=INIT)


def forward(x):
    return jnp.sum(Dense()(x) + Dense()(x))


model = hk.without_apply_rng(hk.transform(forward))


@jax.jit
def step(params, x):
    grads = jax.grad(model.apply)(params, x)
    return jax.tree.map(lambda p, g: p - 0.1 * g, params, grads)


def main():
    x = jnp.linspace(0.0, 1.0, 3)
    params = model.init(jax.random.key(0), x)
    for _ in range(3):
        params = step(params, x)
    return params, BASE
