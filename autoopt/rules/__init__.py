"""Every rule autoopt ships, in id order."""

from autoopt.rules.ao101_missing_jit import MissingJit
from autoopt.rules.ao102_jit_in_loop import JitInLoop
from autoopt.rules.ao103_compiled_loop_step import CompiledLoopStep
from autoopt.rules.ao201_missing_donation import MissingDonation
from autoopt.rules.ao301_loop_invariant_transfer import LoopInvariantTransfer
from autoopt.rules.ao302_host_sync_in_loop import HostSyncInLoop
from autoopt.rules.ao401_inplace_update import InplaceUpdate
from autoopt.rules.ao402_grow_by_concatenate import GrowByConcatenate
from autoopt.rules.ao501_loop_to_vmap import LoopToVmap
from autoopt.rules.ao601_remat_candidate import RematCandidate
from autoopt.rules.ao701_xla_env_after_import import XlaEnvAfterImport
from autoopt.rules.ao702_shared_gpu_preallocation import SharedGpuPreallocation
from autoopt.rules.base import Invalid, Rule, Valid

ALL_RULES: tuple[type[Rule], ...] = (
    MissingJit,
    JitInLoop,
    CompiledLoopStep,
    MissingDonation,
    LoopInvariantTransfer,
    HostSyncInLoop,
    InplaceUpdate,
    GrowByConcatenate,
    LoopToVmap,
    RematCandidate,
    XlaEnvAfterImport,
    SharedGpuPreallocation,
)

BY_ID: dict[str, type[Rule]] = {rule.id: rule for rule in ALL_RULES}

__all__ = ["ALL_RULES", "BY_ID", "Invalid", "Rule", "Valid"]
