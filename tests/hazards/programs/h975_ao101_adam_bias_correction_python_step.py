"""A hand-written Adam update called with the Python step count `t`; the bias
corrections `1 - b1 ** t` and `1 - b2 ** t` (b2 = 0.99999) are Python float arithmetic
in double precision, exact to 1e-16. Trap for AO101: jitted, `t` is traced and the
corrections are float32, where `1 - 0.99999` is off by 0.14%: the returned params
change by far more than float32 rounding of the result."""

import jax.numpy as jnp


def adam_update(params, m, v, grads, t, lr=0.1, b1=0.9, b2=0.99999, eps=1e-12):
    m = b1 * m + (1 - b1) * grads
    v = b2 * v + (1 - b2) * grads**2
    m_hat = m / (1 - b1**t)
    v_hat = v / (1 - b2**t)
    return params - lr * m_hat / (jnp.sqrt(v_hat) + eps), m, v


def main():
    params = jnp.array([1.0, -2.0, 0.5])
    m = jnp.zeros(3)
    v = jnp.zeros(3)
    for t in range(1, 4):
        grads = params * jnp.array([1.0, 0.5, 2.0])
        params, m, v = adam_update(params, m, v, grads, t)
    return params, v
