"""GAN training state carries its fixed visualisation noise `z_vis` as a field (so that
checkpoints restore it). Before training the script takes `z_vis = state.z_vis` to make
the example images after training. The step returns the field unchanged. Trap for AO201:
donating the state hands `z_vis`'s buffer to the output, deleting the name the script
kept."""

from typing import NamedTuple

import jax
import jax.numpy as jnp


class GanState(NamedTuple):
    g: jax.Array
    d: jax.Array
    z_vis: jax.Array


@jax.jit
def gan_step(state, z, real):
    def d_loss(d):
        return jnp.mean(jnp.tanh(z @ state.g) @ d) - jnp.mean(real @ d)

    def g_loss(g):
        return -jnp.mean(jnp.tanh(z @ g) @ state.d)

    d = state.d - 0.1 * jax.grad(d_loss)(state.d)
    g = state.g - 0.1 * jax.grad(g_loss)(state.g)
    return GanState(g, d, state.z_vis)


def main():
    state = GanState(
        g=jnp.eye(3) * 0.3, d=jnp.ones(3) * 0.1, z_vis=jnp.linspace(-1.0, 1.0, 6).reshape(2, 3)
    )
    z_vis = state.z_vis
    z = jnp.linspace(0.0, 1.0, 12).reshape(4, 3)
    real = jnp.ones((4, 3))
    for _ in range(6):
        state = gan_step(state, z, real)
    examples = jnp.tanh(z_vis @ state.g)
    return examples, state.d
