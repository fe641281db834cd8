"""Stage 4, rewrite: edits applied to the LibCST tree, keeping the user's formatting."""
