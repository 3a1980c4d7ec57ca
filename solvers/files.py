"""Writing a file so that it is whole or absent (what the results' writers and the kernel's machine-code cache
share), and reading a ``.npy`` file that may be truncated or corrupt (what the class readers share)."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

from .messages import one_line

__all__ = ["write_atomic", "load_npy"]


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


def load_npy(path, advice: str):
    """The array of the ``.npy`` file ``path`` (no pickles), or a one-line ValueError ending in ``advice``
    (what a good file is), the path left for the caller to name. The header's shape is checked against the
    file's size before the array is allocated: a truncated or corrupt file whose header names a huge array
    is refused, not read into memory it could never fill."""
    import numpy as np

    fmt = np.lib.format
    readers = {(1, 0): fmt.read_array_header_1_0, (2, 0): fmt.read_array_header_2_0}
    try:
        total = os.path.getsize(path)
        if total == 0:
            raise ValueError("the file is empty")
        with open(path, "rb") as f:
            version = fmt.read_magic(f)
            header = readers[version](f) if version in readers else None  # other versions: np.load checks them
            start = f.tell()
    except (ValueError, OSError, EOFError) as e:
        raise ValueError(f"not a readable .npy array ({one_line(e)}); {advice}") from None
    if header is not None:
        shape, _, dtype = header
        if not dtype.hasobject:  # (an object array is refused by np.load without pickles)
            need = dtype.itemsize
            for n in shape:
                need *= n
            if need > total - start:
                dims = " x ".join(map(str, shape)) or "a scalar"
                raise ValueError(f"the file is truncated or corrupt: its header names a {dims} array of {dtype} "
                                 f"({need:,} bytes), and {max(0, total - start):,} bytes follow it; {advice}")
    try:
        return np.load(path, allow_pickle=False)
    except (ValueError, OSError, EOFError) as e:
        raise ValueError(f"not a readable .npy array ({one_line(e)}); {advice}") from None
