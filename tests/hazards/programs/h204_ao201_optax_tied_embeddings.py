"""Tiny language model with tied input and output embeddings (the output projection
is the embedding table, the same array), trained with optax. The jitted train step
takes and returns the whole parameter dict."""

import jax
import jax.numpy as jnp
import numpy as np
import optax

VOCAB, DIM = 11, 4


def logits_fn(params, tokens):
    h = params["embed"][tokens]
    h = jnp.tanh(h @ params["mix"])
    return h @ params["unembed"].T


def loss_fn(params, tokens, targets):
    logp = jax.nn.log_softmax(logits_fn(params, tokens))
    return -jnp.mean(jnp.take_along_axis(logp, targets[:, None], axis=1))


optimizer = optax.sgd(0.5)


@jax.jit
def train_step(params, opt_state, tokens, targets):
    loss, grads = jax.value_and_grad(loss_fn)(params, tokens, targets)
    updates, opt_state = optimizer.update(grads, opt_state, params)
    return optax.apply_updates(params, updates), opt_state, loss


def main():
    rng = np.random.default_rng(204)
    table = jnp.asarray(rng.normal(size=(VOCAB, DIM)) * 0.3, jnp.float32)
    params = {"embed": table, "mix": jnp.eye(DIM), "unembed": table}
    opt_state = optimizer.init(params)
    tokens = jnp.asarray(rng.integers(0, VOCAB, size=16))
    targets = (tokens + 1) % VOCAB
    losses = []
    for _ in range(10):
        params, opt_state, loss = train_step(params, opt_state, tokens, targets)
        losses.append(loss)
    return params, jnp.stack(losses)
