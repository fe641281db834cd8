"""Equinox: an eager loop threads `eqx.nn.State` through a BatchNorm and feeds a plain
array update; the state is read after.
"""

import equinox as eqx
import jax
import jax.numpy as jnp


def main():
    make = eqx.nn.make_with_state(eqx.nn.BatchNorm)
    bn, state = make(3, axis_name="batch", momentum=0.5, mode="ema")
    x = jax.random.normal(jax.random.PRNGKey(0), (5, 3))
    bias = jnp.zeros(3)
    for _ in range(3):
        batched = jax.vmap(bn, axis_name="batch", in_axes=(0, None), out_axes=(0, None))
        y, state = batched(x + bias, state)
        bias = bias + 0.3 * jnp.mean(y**2, axis=0)
    return bias, state.get(bn.ema_state_index)
