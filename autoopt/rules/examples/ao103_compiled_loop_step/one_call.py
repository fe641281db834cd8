"""AO103 examples, a loop of one computing statement, taken only as one scan."""

from autoopt.rules.base import Invalid

ONE_CALL_SCAN = Invalid(  # one call: taken because the whole loop then runs as one scan
    """
import jax.numpy as jnp

N_STEPS = 60


def relax(u, w):
    return jnp.tanh(w @ u)


def main():
    u = jnp.ones(16, dtype=jnp.float32)
    w = jnp.eye(16, dtype=jnp.float32) * 0.5
    rows = []
    for _ in range(N_STEPS):
        u = relax(u, w)
        rows.append(u)
    return u, jnp.stack(rows)
""",
    expected="""
import jax
import jax.numpy as jnp

N_STEPS = 60


def relax(u, w):
    return jnp.tanh(w @ u)


@jax.jit
def _main_loop(u, w):
    def body(u, _):
        u = relax(u, w)
        return u, u

    return jax.lax.scan(body, u, length=N_STEPS)


def main():
    u = jnp.ones(16, dtype=jnp.float32)
    w = jnp.eye(16, dtype=jnp.float32) * 0.5
    rows = []
    u, rows = _main_loop(u, w)
    return u, rows
""",
    message="run the whole loop as one jitted `lax.scan`, `_main_loop`",
)
