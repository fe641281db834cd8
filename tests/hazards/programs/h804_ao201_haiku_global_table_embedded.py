"""Two instances of a haiku module class written with `super(Lookup, self)` keep the
global array `TABLE` as their embedding matrix (`hk.Embed(embedding_matrix=TABLE)`).
Trap for AO201: `init` returns `TABLE` itself in two leaves; donating the parameters
donates one buffer twice, and deletes the global read after the loop."""

import haiku as hk
import jax
import jax.numpy as jnp

TABLE = jnp.arange(12.0).reshape(4, 3) / 10.0


class Lookup(hk.Module):
    def __init__(self, name=None):
        super(Lookup, self).__init__(name=name)  # noqa: UP008 (the form under test)

    def __call__(self, ids):
        return hk.Embed(embedding_matrix=TABLE)(ids)


def forward(ids):
    return Lookup()(ids) + Lookup()(ids)


model = hk.without_apply_rng(hk.transform(forward))


@jax.jit
def step(params, ids):
    grads = jax.grad(lambda p: jnp.sum(model.apply(p, ids) ** 2))(params)
    return jax.tree.map(lambda p, g: p - 0.1 * g, params, grads)


def main():
    ids = jnp.array([0, 2, 3])
    params = model.init(jax.random.key(0), ids)
    for _ in range(3):
        params = step(params, ids)
    return params, TABLE
