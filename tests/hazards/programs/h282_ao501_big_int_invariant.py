# BROKEN by the default rewrite (AO501, safe fix applied: the several-statement body
# form).
# Fix: the loop body becomes `_main_per_item(...)`, a jitted `jax.vmap` of a function of
# the row and the loop-invariant names it reads, `prime` among them, passed as an argument.
# `prime % 1000` (= 311) is exact on the Python int 4_294_967_311; passed to the jitted
# function the int does not fit in int32.
# Outcome: original [0.1933412, 0.10711157, -0.00039482, -0.10782751]; default rewrite
# crashes: "OverflowError: An overflow was encountered while parsing an argument to a
# jitted computation, whose argument path is prime. Got <class 'int'> with value
# 4294967311".
# Hazard class: code put under a trace that cannot be traced: Python int arithmetic
# out of int32 range (issue 27, class 1), on a loop-invariant local.
"""Per-row hashed features: each row is scaled by a residue of a large prime,
`prime % 1000`, computed from a local Python int (4_294_967_311) exactly. The loop
body reads the prime; as an argument of a jitted, vmapped body it must fit in int32."""

import jax.numpy as jnp


def main():
    prime = 4_294_967_311
    rows = jnp.linspace(0.0, 1.0, 12).reshape(4, 3)
    feats = []
    for row in rows:
        scaled = row * (prime % 1000)
        feats.append(jnp.sin(scaled / 7.0).sum())
    return jnp.stack(feats)
