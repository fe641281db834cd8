"""WaveNet-style stack of causal dilated convolutions: layer `i` shifts its input by
`2 ** i` samples with `jnp.pad`, so the layer index sizes the padding. The stack is
differentiated with `jax.grad`. Trap for AO601: `jax.checkpoint` traces every argument,
so the layer index becomes a tracer and cannot size the padding."""

import jax
import jax.numpy as jnp

N_LAYERS = 4


def dilated_layer(h, w, i):
    dilation = 2**i
    shifted = jnp.pad(h, (dilation, 0))[: h.shape[0]]
    return h + jnp.tanh(w[0] * h + w[1] * shifted)


def loss(weights, signal):
    h = signal
    for i in range(N_LAYERS):
        h = dilated_layer(h, weights[i], i)
    return jnp.mean((h - jnp.roll(signal, -1)) ** 2)


def main():
    signal = jnp.sin(jnp.linspace(0.0, 8.0, 32))
    weights = jnp.full((N_LAYERS, 2), 0.3)
    value, grads = jax.value_and_grad(loss)(weights, signal)
    return value, grads
