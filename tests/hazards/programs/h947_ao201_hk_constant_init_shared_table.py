"""haiku: two embedding-like modules initialised with `hk.initializers.Constant(TABLE)`
from one module-level array (a pretrained table). The initializer returns `TABLE` itself
for a matching shape and dtype, so `init` gives two parameters that are one buffer.
Trap for AO201: donating `params` donates that buffer twice in one call."""

import haiku as hk
import jax
import jax.numpy as jnp
import optax

TABLE = jnp.array([[0.1, 0.2], [0.3, -0.1], [0.0, 0.5]], dtype=jnp.float32)


def forward(ids):
    enc = hk.Embed(
        embedding_matrix=None,
        vocab_size=3,
        embed_dim=2,
        name="enc",
        w_init=hk.initializers.Constant(TABLE),
    )
    dec = hk.Embed(vocab_size=3, embed_dim=2, name="dec", w_init=hk.initializers.Constant(TABLE))
    return jnp.sum(enc(ids) * dec(ids))


model = hk.without_apply_rng(hk.transform(forward))
opt = optax.sgd(0.1)


@jax.jit
def update(params, opt_state, ids):
    grads = jax.grad(lambda p: (model.apply(p, ids) - 1.0) ** 2)(params)
    updates, opt_state = opt.update(grads, opt_state)
    return optax.apply_updates(params, updates), opt_state


def main():
    ids = jnp.array([0, 2])
    params = model.init(jax.random.PRNGKey(0), ids)
    opt_state = opt.init(params)
    for _ in range(3):
        params, opt_state = update(params, opt_state, ids)
    return params
