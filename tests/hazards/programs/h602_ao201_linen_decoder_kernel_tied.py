"""A linen autoencoder whose decoder kernel the user ties to the encoder's by editing
the params dict after `init`: `params["decoder"]["kernel"] = params["encoder"]["kernel"]`
(a square layer, so no transpose). Trap for AO201: `linen init` makes distinct buffers,
but the edit puts one buffer in two leaves, and donating `params` donates it twice."""

import flax.linen as nn
import jax
import jax.numpy as jnp
import optax


class AutoEncoder(nn.Module):
    @nn.compact
    def __call__(self, x):
        h = nn.relu(nn.Dense(4, name="encoder")(x))
        return nn.Dense(4, name="decoder")(h)


MODEL = AutoEncoder()
TX = optax.adam(0.02)


@jax.jit
def train_step(params, opt_state, x):
    def loss(p):
        return jnp.mean((MODEL.apply({"params": p}, x) - x) ** 2)

    value, grads = jax.value_and_grad(loss)(params)
    updates, opt_state = TX.update(grads, opt_state, params)
    return optax.apply_updates(params, updates), opt_state, value


def main():
    x = jnp.linspace(-1.0, 1.0, 16).reshape(4, 4)
    params = MODEL.init(jax.random.key(0), x)["params"]
    params = {"encoder": dict(params["encoder"]), "decoder": dict(params["decoder"])}
    params["decoder"]["kernel"] = params["encoder"]["kernel"]
    opt_state = TX.init(params)
    history = []
    for _ in range(8):
        params, opt_state, value = train_step(params, opt_state, x)
        history.append(float(value))
    print("final loss", round(history[-1], 5))
    return history, params["decoder"]["kernel"]
