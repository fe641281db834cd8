"""AO103 compiled-loop-step: the cases tests/test_rule_examples.py runs, one module per
rewrite form.

`VALID` and `INVALID` keep the order the cases were written in, which the tests' ids
follow. The one INVALID case flagged `doc=True` (`donated_step.RNN_CELL`) is the example
its documentation shows.
"""

from autoopt.rules.base import Invalid, Valid
from autoopt.rules.examples.ao103_compiled_loop_step import (
    batches,
    closures,
    donated_step,
    evosax_steps,
    guarded,
    handed,
    held_layers,
    kept,
    library_steps,
    nnx_in_place,
    no_fix,
    one_call,
    step,
    tail,
    valid,
    while_loop,
    whole_loop_scan,
)

VALID: tuple[Valid, ...] = (
    *valid.VALID,
    *kept.VALID,
    *nnx_in_place.VALID,
    *library_steps.VALID,
    *evosax_steps.VALID,
    *closures.VALID,
    *handed.VALID,
    *held_layers.VALID,
    *no_fix.VALID,
    *batches.VALID,
)
INVALID: tuple[Invalid, ...] = (
    donated_step.RNN_CELL,
    step.DIFFUSE,
    whole_loop_scan.MODULE_DESCENT,
    donated_step.MODULE_UNTYPED_TEMPORARY,
    kept.MODULE_WAVE_PROBE,
    donated_step.CENTER,
    step.SIMULATE,
    step.SMOOTH,
    step.RELAX,
    step.TRAIN,
    guarded.COUNTED_WHILE_GUARDED,
    no_fix.NUMPY_ROWS,
    no_fix.NUMPY_ARGUMENT,
    no_fix.UNSEEN_METHOD,
    whole_loop_scan.STACKED_ENERGY,
    guarded.DEFAULT_FLOAT_SOURCE,
    while_loop.COUNTED_WHILE,
    while_loop.WHILE_STEP_OF_TWO,
    kept.GUARDED_CG,
    kept.SNAPSHOTS,
    kept.MODULE_FROM_TWO,
    one_call.ONE_CALL_SCAN,
    guarded.DEFAULT_JAX_WEIGHTS,
    nnx_in_place.OPTIMIZER_UPDATE,
    nnx_in_place.NNX_UPDATE,
    nnx_in_place.JIT_STEP_LOOP,
    nnx_in_place.NNX_STEP,
    nnx_in_place.NNX_HOST_WRITE,
    nnx_in_place.NNX_MODULE_CALL,
    library_steps.OPTAX_LOCAL,
    *evosax_steps.INVALID,
    *closures.INVALID,
    handed.HANDED_ATTRIBUTE,
    handed.FLOAT_CANCELS,
    *held_layers.INVALID,
    no_fix.LATE_DEVICE_WORK,
    no_fix.PYTHON_NUMBER_LEFT,
    *batches.INVALID,
    nnx_in_place.NNX_LOOP,
    *tail.INVALID,
)
