"""An absl program (`app.run(main)` under `__main__`): the step's learning rate is
`FLAGS.learning_rate`, which the loop lowers by assigning the flag (a plateau
schedule). Trap for AO101: jitting `sgd_update` reads the flag at trace time only."""

import jax.numpy as jnp
from absl import app, flags

flags.DEFINE_float("learning_rate", 0.3, "step size")
FLAGS = flags.FLAGS


def sgd_update(w, g):
    return w - FLAGS.learning_rate * g


def main(argv=("prog",)):
    FLAGS(list(argv))
    FLAGS.learning_rate = 0.3
    target = jnp.array([2.0, -1.0])
    w = jnp.zeros(2)
    for _ in range(4):
        for _ in range(2):
            g = 2.0 * (w - target)
            w = sgd_update(w, g)
        FLAGS.learning_rate = FLAGS.learning_rate * 0.5
    return w


if __name__ == "__main__":
    app.run(main)
