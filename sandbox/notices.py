"""Warnings the sandbox logs once per process (a weaker fallback in use, for instance)."""

from __future__ import annotations

import logging

log = logging.getLogger("sandbox")
_warned: set[str] = set()


def warn_once(key: str, message: str) -> None:
    """Log ``message`` as a warning the first time ``key`` is seen in this process."""
    if key not in _warned:
        _warned.add(key)
        log.warning(message)
