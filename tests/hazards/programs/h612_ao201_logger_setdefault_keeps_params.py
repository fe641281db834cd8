"""A metrics logger that stores what it is given: `log_params` keeps the params of the
first call with `self.records.setdefault("first", params)` and the latest as
`self.records["last"]`. Trap for AO201: the logger's dict keeps the buffers that the
next (donated) call of the step deletes; the report reads them after training."""

import jax
import jax.numpy as jnp


class Logger:
    def __init__(self):
        self.records = {}

    def log_params(self, params):
        self.records.setdefault("first", params)
        self.records["last"] = params

    def report(self):
        first, last = self.records["first"], self.records["last"]
        return float(jnp.linalg.norm(last["w"] - first["w"]))


@jax.jit
def sgd(params, x, y):
    grads = jax.grad(lambda p: jnp.mean((x @ p["w"] + p["b"] - y) ** 2))(params)
    return jax.tree.map(lambda p, g: p - 0.2 * g, params, grads)


def main():
    logger = Logger()
    x = jnp.linspace(0.0, 1.0, 8).reshape(4, 2)
    y = jnp.array([1.0, 2.0, 3.0, 4.0])
    params = {"w": jnp.zeros(2), "b": jnp.zeros(())}
    for _ in range(7):
        params = sgd(params, x, y)
        logger.log_params(params)
    print("moved", round(logger.report(), 5))
    return params
