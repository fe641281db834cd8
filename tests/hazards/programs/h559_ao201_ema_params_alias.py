"""Framework hazard (issue 26): EMA parameters started as an alias of the state's params.

A linen TrainState is trained by a jitted step; the exponential moving average of
the parameters starts as `ema_params = state.params` (the same arrays) and is updated
after every step with `optax.incremental_update`. Donating `state` in the first call
deletes the arrays `ema_params` holds, and the first EMA update reads them.
"""

import jax
import jax.numpy as jnp
import numpy as np
import optax
from flax import linen as nn
from flax.training import train_state

STEPS = 30


class Classifier(nn.Module):
    @nn.compact
    def __call__(self, x):
        return nn.Dense(3)(nn.relu(nn.Dense(16)(x)))


@jax.jit
def train_step(state, x, labels):
    def loss_fn(params):
        logits = state.apply_fn({"params": params}, x)
        return optax.softmax_cross_entropy_with_integer_labels(logits, labels).mean()

    loss, grads = jax.value_and_grad(loss_fn)(state.params)
    return state.apply_gradients(grads=grads), loss


def main():
    rng = np.random.default_rng(0)
    x = jnp.asarray(rng.normal(size=(96, 4)).astype(np.float32))
    labels = jnp.asarray(np.argmax(np.asarray(x)[:, :3], axis=1))
    model = Classifier()
    params = model.init(jax.random.PRNGKey(0), x[:1])["params"]
    state = train_state.TrainState.create(apply_fn=model.apply, params=params, tx=optax.sgd(0.3))
    ema_params = state.params
    losses = []
    for _ in range(STEPS):
        state, loss = train_step(state, x, labels)
        ema_params = optax.incremental_update(state.params, ema_params, step_size=0.1)
        losses.append(loss)
    ema_logits = model.apply({"params": ema_params}, x)
    return {"losses": jnp.stack(losses), "ema_logits": ema_logits}
