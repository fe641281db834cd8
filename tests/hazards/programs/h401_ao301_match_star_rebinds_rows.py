"""A command loop whose `match` binds the weights through a star capture
(`case ["load", *weights]`): the list the loop transfers is replaced on "load"
commands, so hoisting its transfer would keep the first weights."""

import jax.numpy as jnp

COMMANDS = [["step"], ["load", 2.0, 3.0], ["step"], ["load", -1.0, 0.5], ["step"]]


def main():
    weights = [1.0, 1.0]
    totals = []
    for command in COMMANDS:
        match command:
            case ["load", *weights]:
                pass
            case _:
                pass
        totals.append(jnp.sum(jnp.asarray(weights) * 3.0))
    return jnp.stack(totals)
