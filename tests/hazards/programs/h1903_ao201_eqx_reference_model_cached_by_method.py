"""equinox: `policy.log_prob(a)` caches the first policy it ran as the reference for
a KL penalty report (`REFERENCE.setdefault("policy", self)`, a module-level dict); the
loop scores a fixed action after each `eqx.filter_jit` step, then reports the final
logits against the reference's. Trap for AO201 (`donate="all-except-first"`):
donating the policy at the next step deletes the reference policy's arrays."""

import equinox as eqx
import jax
import jax.numpy as jnp
import optax

REFERENCE = {}


class Policy(eqx.Module):
    logits: jax.Array

    def __init__(self):
        self.logits = jnp.array([0.5, -0.25, 0.0])

    def log_prob(self, action):
        REFERENCE.setdefault("policy", self)
        return jax.nn.log_softmax(self.logits)[action]


OPT = optax.sgd(0.5)


@eqx.filter_jit
def make_step(policy, opt_state, actions, advantages):
    def loss_fn(p):
        return -jnp.mean(jax.nn.log_softmax(p.logits)[actions] * advantages)

    loss, grads = eqx.filter_value_and_grad(loss_fn)(policy)
    updates, opt_state = OPT.update(grads, opt_state)
    return eqx.apply_updates(policy, updates), opt_state, loss


def main():
    policy = Policy()
    actions = jnp.array([0, 1, 2, 1])
    advantages = jnp.array([1.0, -0.5, 0.25, 0.75])
    opt_state = OPT.init(eqx.filter(policy, eqx.is_array))
    scores = []
    for _ in range(4):
        policy, opt_state, _ = make_step(policy, opt_state, actions, advantages)
        scores.append(float(policy.log_prob(2)))
    ref = REFERENCE["policy"].logits
    return scores, policy.logits - ref
