"""The workspace's ``params``: (being moved here from the command line, issue 35 section 4).

Its methods are named in :data:`METHODS` (functions whose first argument is the workspace)."""

from __future__ import annotations

#: The functions of this module that are methods of :class:`~adversary.workspace.Workspace`.
METHODS: tuple = ()
