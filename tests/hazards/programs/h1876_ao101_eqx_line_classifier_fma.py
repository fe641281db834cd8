"""equinox: a `LineClassifier(eqx.Module)` holds a direction and an anchor point;
`side(clf, p)` returns the sign of the 2-D cross product of the direction with
`p - anchor` (a reader of the module's fields, not its `__call__`), called for each
query point in a loop. The queries lie on the line through the anchor along the
diagonal direction, so the cross product is `u * v - u * v`, exactly 0 eagerly. Trap
for AO101: the fix jits `side`, and XLA contracts the cross product into a fused
multiply-add that leaves one product's rounding error: the signs become +1/-1."""

import equinox as eqx
import jax
import jax.numpy as jnp


class LineClassifier(eqx.Module):
    direction: jax.Array
    anchor: jax.Array


def side(clf, p):
    d = p - clf.anchor
    cross = clf.direction[0] * d[1] - clf.direction[1] * d[0]
    return jnp.sign(cross).astype(jnp.int32)


def main():
    clf = LineClassifier(direction=jnp.array([0.3, 0.3]), anchor=jnp.array([0.0, 0.0]))
    labels = []
    for k in range(1, 7):
        labels.append(side(clf, jnp.array([0.17, 0.17]) * k))
    return jnp.stack(labels)
