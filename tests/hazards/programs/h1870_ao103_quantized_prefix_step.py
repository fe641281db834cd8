"""plain jax, fixed-point arithmetic: `fixed_point_prefix(xs)` computes a running sum in
Q8 fixed point, rounding each partial sum to 1/256 with the magic-number trick and
storing it with `.at[i].set`. Eagerly every operation rounds, so each stored value is a
multiple of 1/256. Trap for AO103: the compiled step runs the body under `jax.jit`,
where XLA's algebraic simplifier folds `(t + C) - C` to `t`: the partial sums are no
longer rounded."""

import jax
import jax.numpy as jnp

MAGIC = 12582912.0


def fixed_point_prefix(xs):
    out = jnp.zeros(xs.shape[0])
    total = jnp.zeros(())
    for i in range(xs.shape[0]):
        scaled = (total + xs[i]) * 256.0
        total = ((scaled + MAGIC) - MAGIC) / 256.0
        out = out.at[i].set(total)
    return out


def main():
    xs = jax.random.normal(jax.random.PRNGKey(5), (12,)) * 0.3
    return fixed_point_prefix(xs)
