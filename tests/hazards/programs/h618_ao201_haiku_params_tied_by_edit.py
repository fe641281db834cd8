"""A haiku autoencoder whose decoder is tied to the encoder by editing the mutable
params after `init`: `params["decoder"]["w"] = params["encoder"]["w"]`. Trap for AO201:
`hk.transform(...).init` makes distinct buffers, but the edit puts one of them in two
leaves; donating `params` to the optax step donates it twice."""

import haiku as hk
import jax
import jax.numpy as jnp
import optax


def forward(x):
    h = jax.nn.relu(hk.Linear(3, name="encoder")(x))
    return hk.Linear(3, name="decoder")(h)


NET = hk.without_apply_rng(hk.transform(forward))
TX = optax.sgd(0.1, momentum=0.9)


@jax.jit
def update(params, opt_state, x):
    value, grads = jax.value_and_grad(lambda p: jnp.mean((NET.apply(p, x) - x) ** 2))(params)
    updates, opt_state = TX.update(grads, opt_state)
    return optax.apply_updates(params, updates), opt_state, value


def main():
    x = jnp.linspace(-1.0, 1.0, 9).reshape(3, 3)
    params = hk.data_structures.to_mutable_dict(NET.init(jax.random.key(4), x))
    params["decoder"]["w"] = params["encoder"]["w"]
    opt_state = TX.init(params)
    for _ in range(6):
        params, opt_state, value = update(params, opt_state, x)
    print("loss", round(float(value), 5))
    return params["decoder"]["w"], params["encoder"]["b"]
