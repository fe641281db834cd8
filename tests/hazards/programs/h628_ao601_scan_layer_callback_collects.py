"""An activation monitor for a stack of residual layers run by `lax.scan` under
`jax.grad`: each layer reports its mean activation through `record`, a
`functools.partial` of `jax.debug.callback` bound to the host list's `append`. Trap for
AO601: checkpointing the layer recomputes it on the backward pass, and the callback
runs again: the list gets every layer twice."""

import functools

import jax
import jax.numpy as jnp

ACTIVATIONS = []
record = functools.partial(jax.debug.callback, ACTIVATIONS.append)


def layer(h, w):
    h = h + jnp.tanh(h @ w)
    record(jnp.mean(h))
    return h, None


def loss(ws, x):
    h, _ = jax.lax.scan(layer, x, ws)
    return jnp.mean(h**2)


grad_step = jax.jit(jax.value_and_grad(loss))


def main():
    ws = jnp.stack([jnp.eye(4) * (0.1 * (k + 1)) for k in range(5)])
    x = jnp.linspace(-1.0, 1.0, 8).reshape(2, 4)
    value, grads = grad_step(ws, x)
    jax.effects_barrier()
    print("layers seen", len(ACTIVATIONS))
    return value, grads, [float(a) for a in ACTIVATIONS]
