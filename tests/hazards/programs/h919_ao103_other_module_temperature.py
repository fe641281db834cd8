"""An eager distillation loop whose loss divides by `hazlib_blind_sched.TEMPERATURE`, a
global of another module of the project that `hazlib_blind_sched.cool()` rebinds after
each step. Trap for AO103: the compiled step keeps the first temperature."""

import hazlib_blind_sched
import jax
import jax.numpy as jnp


def distill_loss(logits, teacher):
    t = hazlib_blind_sched.TEMPERATURE
    p = jax.nn.softmax(teacher / t)
    return -jnp.sum(p * jax.nn.log_softmax(logits / t))


def main():
    hazlib_blind_sched.TEMPERATURE = 2.0
    teacher = jnp.array([2.0, 0.5, -1.0])
    logits = jnp.zeros(3)
    for _ in range(5):
        g = jax.grad(distill_loss)(logits, teacher)
        logits = logits - 0.5 * g
        hazlib_blind_sched.cool()
    return logits
