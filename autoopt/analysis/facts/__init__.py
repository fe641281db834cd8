"""The shared authorities rules ask: purity, traced or eager execution, function
summaries, jitted callables and their options, argument kinds at call sites, aliases and
donation, loop invariance, AO101's jit plan, and whether a module reaches jax or runs its
tests in several processes. Each module proves its facts; an unproven premise is the
text of the one that fails."""
