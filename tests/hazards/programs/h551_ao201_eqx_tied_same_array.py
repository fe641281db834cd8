"""Framework hazard (issue 26): equinox tied embeddings by sharing one array.

The output layer's weight is set to the embedding's weight with `eqx.tree_at`, so the
model's pytree holds the same buffer in two leaves. The jitted step returns a new model
(the tie is broken by the first update, as the author accepts). Donating the model
would donate that one buffer twice in the first call.
"""

import equinox as eqx
import jax
import jax.numpy as jnp
import optax

VOCAB = 10
DIM = 8
STEPS = 20


class Model(eqx.Module):
    embed: eqx.nn.Embedding
    head: eqx.nn.Linear

    def __init__(self, key):
        k1, k2 = jax.random.split(key)
        embed = eqx.nn.Embedding(VOCAB, DIM, key=k1)
        head = eqx.nn.Linear(DIM, VOCAB, use_bias=False, key=k2)
        self.embed = embed
        self.head = eqx.tree_at(lambda lin: lin.weight, head, embed.weight)

    def __call__(self, token):
        return self.head(jnp.tanh(self.embed(token)))


optim = optax.sgd(0.5)


def loss_fn(model, tokens, targets):
    logits = jax.vmap(model)(tokens)
    return optax.softmax_cross_entropy_with_integer_labels(logits, targets).mean()


@jax.jit
def train_step(model, opt_state, tokens, targets):
    loss, grads = jax.value_and_grad(loss_fn)(model, tokens, targets)
    updates, opt_state = optim.update(grads, opt_state)
    return eqx.apply_updates(model, updates), opt_state, loss


def main():
    model = Model(jax.random.PRNGKey(0))
    opt_state = optim.init(model)
    tokens = jnp.arange(64) % VOCAB
    targets = (tokens * 3 + 1) % VOCAB
    losses = []
    for _ in range(STEPS):
        model, opt_state, loss = train_step(model, opt_state, tokens, targets)
        losses.append(loss)
    return {"losses": jnp.stack(losses), "head": model.head.weight}
