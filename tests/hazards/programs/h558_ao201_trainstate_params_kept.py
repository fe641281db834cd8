"""Framework hazard (issue 26): a flax TrainState whose params are also kept in a
variable and read later.

`params = model.init(...)["params"]` goes into `TrainState.create(params=params)`;
after training, the program evaluates the initial `params` as a baseline. The
jitted step returns a new state; donating `state` would delete the buffers the
`params` variable still holds (the first call's state leaves are those arrays).
"""

import jax
import jax.numpy as jnp
import numpy as np
import optax
from flax import linen as nn
from flax.training import train_state

STEPS = 25


class Regressor(nn.Module):
    @nn.compact
    def __call__(self, x):
        return nn.Dense(1)(nn.tanh(nn.Dense(16)(x)))


model = Regressor()


def mse(params, x, y):
    return jnp.mean((model.apply({"params": params}, x) - y) ** 2)


@jax.jit
def train_step(state, x, y):
    loss, grads = jax.value_and_grad(mse)(state.params, x, y)
    return state.apply_gradients(grads=grads), loss


def main():
    rng = np.random.default_rng(0)
    x = jnp.asarray(rng.uniform(-2, 2, size=(128, 3)).astype(np.float32))
    y = jnp.sum(jnp.sin(x), axis=1, keepdims=True)
    params = model.init(jax.random.PRNGKey(0), x[:1])["params"]
    state = train_state.TrainState.create(apply_fn=model.apply, params=params, tx=optax.adam(0.02))
    for _ in range(STEPS):
        state, loss = train_step(state, x, y)
    return {"final": loss, "baseline": mse(params, x, y), "step": state.step}
