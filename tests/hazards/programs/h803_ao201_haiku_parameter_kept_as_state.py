"""haiku module classes written with `super(Block, self).__init__(name=name)`, reading
a data statistic from a global: the parameter `w` is read twice under its one name and
the second read is stored as state too (`hk.set_state("w_copy", ...)`). Trap for AO201:
`init` returns one buffer as a parameter and as a state leaf; donating both to the
jitted step donates that buffer twice."""

import haiku as hk
import jax
import jax.numpy as jnp
import numpy as np

SCALE = float(np.var(np.arange(4.0)))


class Block(hk.Module):
    def __init__(self, name=None):
        super(Block, self).__init__(name=name)  # noqa: UP008 (the form under test)

    def __call__(self, x):
        w = hk.get_parameter("w", [3], init=jnp.ones)
        hk.set_state("w_copy", hk.get_parameter("w", [3], init=jnp.ones))
        return jnp.sum(x * w) / SCALE


def forward(x):
    return Block()(x)


model = hk.transform_with_state(forward)


@jax.jit
def step(params, state, x):
    grads = jax.grad(lambda p: model.apply(p, state, None, x)[0])(params)
    params = jax.tree.map(lambda p, g: p - 0.1 * g, params, grads)
    return params, jax.tree.map(lambda s: s * 0.5, state)


def main():
    x = jnp.linspace(0.0, 1.0, 3)
    params, state = model.init(jax.random.key(0), x)
    for _ in range(3):
        params, state = step(params, state, x)
    return params, state
