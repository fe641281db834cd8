"""Online and target parameters kept together in one dict, both filled from the same
initial array: `nets = {"online": w, "target": w}`. Trap for AO201: the donated dict
holds one buffer in two leaves (XLA refuses to donate it twice); the step returns a new
dict, so naive liveness sees `nets` dead after the call."""

import jax
import jax.numpy as jnp


@jax.jit
def step(nets, x, y):
    def loss(w):
        return jnp.mean((x @ w - y) ** 2 + 0.1 * (x @ w - x @ nets["target"]) ** 2)

    value, g = jax.value_and_grad(loss)(nets["online"])
    online = nets["online"] - 0.1 * g
    target = 0.9 * nets["target"] + 0.1 * online
    return {"online": online, "target": target}, value


def main():
    x = jnp.linspace(0.0, 1.0, 8).reshape(4, 2)
    y = jnp.array([0.5, 1.0, 1.5, 2.0])
    w = jnp.zeros(2)
    nets = {"online": w, "target": w}
    for _ in range(6):
        nets, value = step(nets, x, y)
    print("loss", round(float(value), 5))
    return nets
