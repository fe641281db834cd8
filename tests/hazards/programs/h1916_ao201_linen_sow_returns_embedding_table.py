"""flax linen: the model sows its embedding table into the `intermediates` collection
(`self.sow("intermediates", "table", self.embed.embedding)`, the parameter array
itself); after each jitted update the loop applies the model with
`mutable=["intermediates"]` on a fresh batch and keeps the returned collection, to
inspect the table later. Trap for AO201 (`donate_argnames`): donating `params` at the
next step deletes the tables the kept collections hold."""

import flax.linen as nn
import jax
import jax.numpy as jnp
import optax


class Model(nn.Module):
    def setup(self):
        self.embed = nn.Embed(4, 3)
        self.head = nn.Dense(1)

    def __call__(self, ids):
        self.sow("intermediates", "table", self.embed.embedding)
        return self.head(self.embed(ids))


MODEL = Model()
OPT = optax.sgd(0.1)


@jax.jit
def step(params, opt_state, ids, y):
    def loss_fn(p):
        return jnp.mean((MODEL.apply(p, ids) - y) ** 2)

    loss, grads = jax.value_and_grad(loss_fn)(params)
    updates, opt_state = OPT.update(grads, opt_state)
    return optax.apply_updates(params, updates), opt_state, loss


def main():
    ids = jnp.array([0, 2])
    y = jnp.array([[1.0], [-1.0]])
    params = MODEL.init(jax.random.PRNGKey(0), ids)
    opt_state = OPT.init(params)
    inspected = []
    for _ in range(3):
        params, opt_state, _ = step(params, opt_state, ids, y)
        _, state = MODEL.apply(params, jnp.array([1]), mutable=["intermediates"])
        inspected.append(state)
    return inspected
