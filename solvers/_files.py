"""Writing a file so that it is whole or absent: what the results' writers and the kernel's machine-code cache share."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

__all__ = ["write_atomic"]


def write_atomic(path: Path, write) -> None:
    """``write(tmp)`` into a temporary file beside ``path``, then rename it into place (a crash or a
    failed write never leaves half a file at ``path``, nor destroys an older one)."""
    fd, tmp = tempfile.mkstemp(dir=path.parent if str(path.parent) else ".", prefix=f".{path.name}.", suffix=path.suffix)
    os.close(fd)
    try:
        umask = os.umask(0)
        os.umask(umask)
        os.chmod(tmp, 0o666 & ~umask)  # mkstemp makes 0600; a result file reads as any other file
        write(Path(tmp))
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise
