"""A scanned stack of layers whose per-layer gain comes from the host through
`io_callback` (a host-side controller table, read on the stop-gradient layer index).
Trap for AO601: `jax.checkpoint` cannot recompute an io effect: under `jax.grad` the
checkpointed layer raises `NotImplementedError` (effects not supported in remat)."""

import jax
import jax.numpy as jnp
import numpy as np
from jax.experimental import io_callback

GAINS = np.array([1.0, 0.9, 0.8, 0.7, 0.6], dtype=np.float32)


def host_gain(index):
    return GAINS[int(index)]


def layer(h, inputs):
    w, index = inputs
    gain = io_callback(host_gain, jax.ShapeDtypeStruct((), jnp.float32), index)
    return h + gain * jnp.tanh(h @ w), None


def loss(ws, x):
    h, _ = jax.lax.scan(layer, x, (ws, jnp.arange(ws.shape[0])))
    return jnp.mean(h**2)


grad_fn = jax.jit(jax.grad(loss))


def main():
    ws = jnp.stack([jnp.eye(3) * 0.2 + 0.01 * k for k in range(5)])
    x = jnp.linspace(0.0, 1.0, 6).reshape(2, 3)
    grads = grad_fn(ws, x)
    print("grad norm", round(float(jnp.linalg.norm(grads)), 5))
    return grads
