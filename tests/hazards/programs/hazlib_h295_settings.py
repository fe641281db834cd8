"""Settings for h295: re-exports the cache note of `hazlib_h295_paths`."""

from hazlib_h295_paths import CACHE_NOTE

BANNER = "settings: " + CACHE_NOTE
