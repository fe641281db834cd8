"""Run-time tuning of h88's constants, from outside: `retune` rebinds a global of the
module it imports (issue 27)."""


def retune(damping):
    import h88_ao101_other_module_rebinds_global as oscillator

    oscillator.DAMPING = damping
