"""A haiku function whose two parameters are initialised from one local array by
user-written initializers: `init` returns that buffer in two leaves. Trap for the
fresh-`init` premise (`facts/initializers.py`): donating `params` donates it twice."""

import haiku as hk
import jax
import jax.numpy as jnp


def forward(x):
    start = jnp.full(3, 0.5)
    scale = hk.get_parameter("scale", [3], init=lambda *_: start)
    shift = hk.get_parameter("shift", [3], init=lambda *_: start)
    return x * scale + shift


model = hk.transform(forward)


@jax.jit
def step(params, x):
    grads = jax.grad(lambda p: jnp.sum(model.apply(p, None, x) ** 2))(params)
    return jax.tree.map(lambda p, g: p - 0.1 * g, params, grads)


def main():
    x = jnp.arange(3.0)
    params = model.init(jax.random.key(0), x)
    for _ in range(3):
        params = step(params, x)
    return params
