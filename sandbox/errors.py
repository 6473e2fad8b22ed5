"""Errors the sandbox raises.

A ``SandboxError`` means the judge could not run the program as promised (bubblewrap missing, a
cgroup that cannot be created, a slot already in use, bubblewrap failing to set up the box): the
judge reports it as JE, never as a verdict of the submission.
"""

from __future__ import annotations


class SandboxError(RuntimeError):
    """The sandbox could not run a command with the promised isolation and limits."""
