"""optax + jax.jit: a `Monitor` object whose attribute is set from outside the class
(`monitor.initial = params["w"]`) before the loop. Trap for AO201: donating `params`
deletes the weight the monitor holds, read after training."""

import jax
import jax.numpy as jnp
import optax

optimizer = optax.adam(0.1)


class Monitor:
    initial = None

    def report(self, params):
        return jnp.linalg.norm(params["w"] - self.initial)


@jax.jit
def train_step(params, opt_state, x, y):
    loss, grads = jax.value_and_grad(lambda p: jnp.mean((x @ p["w"] - y) ** 2))(params)
    updates, opt_state = optimizer.update(grads, opt_state, params)
    return optax.apply_updates(params, updates), opt_state, loss


def main():
    params = {"w": jnp.ones((2,))}
    monitor = Monitor()
    monitor.initial = params["w"]
    opt_state = optimizer.init(params)
    x = jnp.array([[1.0, 0.5], [0.2, 0.3]])
    y = jnp.array([0.0, 1.0])
    for _ in range(4):
        params, opt_state, loss = train_step(params, opt_state, x, y)
    return monitor.report(params), loss
