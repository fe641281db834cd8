"""plain jax, rendering: a canvas test probes the pixel edges of the right half of a
64-pixel viewport, the coordinate `(k - 0.15) / 63.7` of each edge and the float32 on
either side of it (`jnp.nextafter`), and maps each probe to its pixel with `to_pixel`,
`floor(x * 63.7 + 0.15)`, one probe at a time in a list comprehension, stacked. Eagerly
the product is rounded before the offset is added. Trap for AO501: the fix runs
`to_pixel` jitted and vmapped, and XLA contracts `x * s + o` into a fused multiply-add
that rounds once: probes within an ulp of an edge land in the neighbouring pixel, and
the integer pixel indices change."""

import jax.numpy as jnp


def to_pixel(p):
    return jnp.floor(p * 63.7 + 0.15).astype(jnp.int32)


def main():
    k = jnp.arange(33, 64, dtype=jnp.float32)
    edges = (k - 0.15) / 63.7
    probes = jnp.concatenate([jnp.nextafter(edges, 0.0), edges, jnp.nextafter(edges, 1.0)])
    pixels = jnp.stack([to_pixel(p) for p in probes])
    return pixels
