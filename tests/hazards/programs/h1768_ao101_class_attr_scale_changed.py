"""A helper scales by a class attribute (`Units.SCALE`), which the loop changes when the
unit system switches.
"""

import jax.numpy as jnp


class Units:
    SCALE = 1.0


def to_units(x):
    return x * Units.SCALE + jnp.sin(x)


def main():
    out = []
    for i in range(4):
        if i == 2:
            Units.SCALE = 100.0
        out.append(to_units(jnp.linspace(0.0, 1.0, 3)))
    return jnp.stack(out)
