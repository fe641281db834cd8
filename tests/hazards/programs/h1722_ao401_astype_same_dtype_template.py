"""`img = template.astype(jnp.float32)` of a float32 template is the template itself;
the template is reused for a second image.
"""

import jax.numpy as jnp


def stamp(template, spots):
    img = template.astype(jnp.float32)
    for r, c in spots:
        img = img.at[r, c].set(1.0)
    return img


def main():
    template = jnp.full((4, 4), 0.25)
    a = stamp(template, [(0, 0), (1, 2)])
    b = stamp(template, [(3, 3)])
    return a, b
