"""Hand-written Adam whose two moment buffers are created with
`dict.fromkeys(("m", "v"), jnp.zeros(n))`: both keys hold one array. Donating the
moments donates that buffer twice, which XLA refuses."""

import jax
import jax.numpy as jnp


@jax.jit
def adam_moments(moments, g):
    m = 0.9 * moments["m"] + 0.1 * g
    v = 0.999 * moments["v"] + 0.001 * g * g
    return {"m": m, "v": v}


def main():
    w = jnp.array([2.0, -1.0, 0.5, 3.0])
    moments = dict.fromkeys(("m", "v"), jnp.zeros(4))
    for t in range(1, 21):
        g = 2.0 * w
        moments = adam_moments(moments, g)
        m_hat = moments["m"] / (1 - 0.9**t)
        v_hat = moments["v"] / (1 - 0.999**t)
        w = w - 0.05 * m_hat / (jnp.sqrt(v_hat) + 1e-8)
    return w, moments
