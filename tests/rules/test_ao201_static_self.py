"""AO201 on a method jitted with a static `self` (dm-haiku's GAN example): the rewritten
program computes the same numbers, and XLA really takes the donated buffers."""

from __future__ import annotations

from autoopt.model import Applicability
from autoopt.rules.examples.ao201_static_self import GAN, _donated
from tests.rules.helpers import assert_same, rewrite, run_snippet

PROGRAM = GAN.replace("print(state)", "result = (jax.random.key_data(rng), state)")


def test_the_gan_update_donates_the_key_and_the_state() -> None:
    result = rewrite(PROGRAM, ("AO201",))
    assert [(f.rule, f.fix, f.message) for f in result.findings] == [
        (
            "AO201",
            Applicability.SAFE,
            "`rng`, `state` are dead after every call of `gan.update` and replaced by its "
            "output: donate them (`donate_argnames`) so XLA reuses the buffer",
        )
    ]
    assert result.new_source == _donated(PROGRAM)
    assert_same(run_snippet(PROGRAM), run_snippet(result.new_source))


def test_the_donated_state_is_deleted_by_the_call() -> None:
    probe = _donated(PROGRAM).replace(
        "result = (jax.random.key_data(rng), state)",
        "before = state\nrng, state = gan.update(rng, state, jnp.zeros(4))\n"
        "result = before.is_deleted()",
    )
    assert run_snippet(probe) is True
