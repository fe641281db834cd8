"""Every rule autoopt ships, in id order."""

from autoopt.rules.ao101_missing_jit import MissingJit
from autoopt.rules.ao102_jit_in_loop import JitInLoop
from autoopt.rules.ao701_xla_env_after_import import XlaEnvAfterImport
from autoopt.rules.base import Invalid, Rule, Valid

ALL_RULES: tuple[type[Rule], ...] = (MissingJit, JitInLoop, XlaEnvAfterImport)

BY_ID: dict[str, type[Rule]] = {rule.id: rule for rule in ALL_RULES}

__all__ = ["ALL_RULES", "BY_ID", "Invalid", "Rule", "Valid"]
