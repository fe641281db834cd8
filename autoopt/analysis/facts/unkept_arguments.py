"""Library calls that keep no reference to their arguments and return none of them.

`keeps_no_argument` holds of a call the overlays list (`overlays.KEEPS_NO_ARGUMENT`,
`flax.training.checkpoints.save_checkpoint`, `jax.random.split`) when it is given only
the parameters the overlay names (by position, in order, or by keyword) and no `*args` or
`**kwargs`: an argument left out of the list (an `async_manager` that writes later) voids
it. Once such a call returns, what it was given is held only where it was before.
"""

from __future__ import annotations

import libcst as cst

from autoopt.analysis import overlays
from autoopt.analysis.core.context import ModuleContext


def keeps_no_argument(ctx: ModuleContext, call: cst.Call) -> bool:
    """Whether `call` keeps none of its arguments once it returns, nor returns one."""
    params = overlays.KEEPS_NO_ARGUMENT.get(ctx.qualify(call.func) or "")
    if params is None or any(a.star for a in call.args):
        return False
    positional = [a for a in call.args if a.keyword is None]
    named = [a.keyword.value for a in call.args if a.keyword is not None]
    return len(positional) <= len(params) and all(n in params for n in named)
