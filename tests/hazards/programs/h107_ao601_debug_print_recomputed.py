"""Deep residual stack trained with grad; every block logs its activation norm with
`jax.debug.print`. Trap for AO601: checkpointing the scan body recomputes it on the
backward pass, and every line is printed again (3 lines become 6)."""

import jax
import jax.numpy as jnp


def block(h, w):
    h = h + jnp.tanh(h @ w)
    jax.debug.print("block norm {n:.3f}", n=jnp.linalg.norm(h))
    return h, None


def loss(ws, x):
    h, _ = jax.lax.scan(block, x, ws)
    return jnp.mean(h**2)


def main():
    ws = jnp.stack([jnp.eye(3) * (0.1 * (i + 1)) for i in range(3)])
    x = jnp.array([[1.0, 0.5, -0.5]])
    return jax.grad(loss)(ws, x)
