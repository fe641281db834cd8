"""optax + jax.jit: the DoG optimizer (`optax.contrib.dog`), whose `init` keeps the
initial parameters themselves in its state (to measure the distance travelled). Trap for
AO201: donating both `params` and `opt_state` donates one buffer twice at the first
step, which XLA refuses."""

import jax
import jax.numpy as jnp
import optax

tx = optax.contrib.dog(1.0)


@jax.jit
def train_step(params, opt_state, x, y):
    def loss_fn(p):
        return jnp.mean((x @ p["w"] + p["b"] - y) ** 2)

    loss, grads = jax.value_and_grad(loss_fn)(params)
    updates, opt_state = tx.update(grads, opt_state, params)
    return optax.apply_updates(params, updates), opt_state, loss


def main():
    params = {"w": jnp.array([0.5, -0.5]), "b": jnp.array(0.1)}
    opt_state = tx.init(params)
    x = jnp.array([[1.0, 2.0], [0.5, -1.0], [0.0, 1.0]])
    y = jnp.array([1.0, 0.0, 0.5])
    losses = []
    for _ in range(4):
        params, opt_state, loss = train_step(params, opt_state, x, y)
        losses.append(loss)
    return params, losses
