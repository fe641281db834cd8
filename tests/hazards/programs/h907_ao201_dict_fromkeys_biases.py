"""An MLP's biases initialised with `dict.fromkeys(names, jnp.zeros(width))`: every key
gets the same array. Trap for AO201: donating `params` donates that buffer once per
layer in one call, which XLA refuses."""

import jax
import jax.numpy as jnp


def init_params(width):
    names = ["layer0", "layer1", "layer2"]
    weights = {n: jnp.eye(width) * (0.5 + 0.1 * i) for i, n in enumerate(names)}
    biases = dict.fromkeys(names, jnp.zeros(width))
    return {"w": weights, "b": biases}


def forward(params, x):
    for name in ("layer0", "layer1", "layer2"):
        x = jnp.tanh(x @ params["w"][name] + params["b"][name])
    return x


@jax.jit
def train_step(params, x, y):
    grads = jax.grad(lambda p: jnp.mean((forward(p, x) - y) ** 2))(params)
    return jax.tree.map(lambda p, g: p - 0.1 * g, params, grads)


def main():
    params = init_params(3)
    x = jnp.array([[0.5, -0.5, 1.0]])
    y = jnp.array([[0.1, 0.2, 0.3]])
    for _ in range(4):
        params = train_step(params, x, y)
    return params
