"""plain jax, reservoir computing: an echo-state network's recurrent weights are drawn
at random and run with a gain past the edge of chaos, `h = tanh(3.0 * (w @ h) + drive)`,
in an eager loop of several statements that also tracks the mean activity. A random
recurrent network with gain 3 is chaotic: one-ulp differences grow until the states
are unrelated. Trap for AO103: the compiled loop fuses the scaling and the drive into
fused multiply-adds that round once; after 100 steps the final state and the activity
differ completely, not by float tolerance."""

import jax
import jax.numpy as jnp


def main():
    w = jax.random.normal(jax.random.PRNGKey(0), (32, 32)) / jnp.sqrt(32.0)
    drive = 0.1 * jax.random.normal(jax.random.PRNGKey(1), (32,))
    h = 0.5 * jax.random.normal(jax.random.PRNGKey(2), (32,))
    activity = jnp.zeros(())
    for _ in range(100):
        pre = 3.0 * (w @ h) + drive
        h = jnp.tanh(pre)
        activity = activity + jnp.mean(jnp.abs(h))
    return h, activity
