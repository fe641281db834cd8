"""Each rule's VALID and INVALID cases, one module per rule (data, shipped with the package)."""
