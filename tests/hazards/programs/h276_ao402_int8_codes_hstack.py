# BROKEN by the default rewrite (AO402, safe fix applied: the list form).
# Fix: `codes = jnp.hstack([codes, code])` becomes `codes_parts.append(code)` in the
# loop and one `jnp.hstack(codes_parts)` after it.
# Step by step the int8 array absorbs the first three Python-int codes (weakly typed)
# as int8, so 207 wraps to -49; the first int32 piece (`jnp.argmax(...)[None]`) then
# promotes it to int32. Joined once, every piece promotes together to int32: no wrap.
# Outcome: original [7, 107, -49, 3, 1] (int32); default rewrite [7, 107, 207, 3, 1]:
# "values differ (1 of 5 elements at [2]: -49 -> 207)".
# Hazard class: dtype/weak-type changes in deferred joins (issue 27, class 5).
"""Quantised codes collected in an int8 array with `jnp.hstack`; the first codes are
Python ints (weakly typed: they wrap to int8), then the codes come from `jnp.argmax`
(int32), which promotes the array. Joined once, nothing would wrap."""

import jax.numpy as jnp


def main():
    codes = jnp.zeros(0, dtype=jnp.int8)
    scores = jnp.sin(jnp.arange(40.0)).reshape(5, 8)
    for t in range(5):
        if t < 3:  # noqa: SIM108
            code = 100 * t + 7
        else:
            code = jnp.argmax(scores[t])[None]
        codes = jnp.hstack([codes, code])
    return codes
