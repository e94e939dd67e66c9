"""Reading the files a user names (configurations, case files, logs, checkpoints, outputs compared).

Only a regular file is read: a FIFO, a device or a folder is refused at once, without blocking on it
(the file is opened non-blocking and checked with `fstat` before anything is read), and a file is read
up to a bound, never whole when it is larger.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

MAX_READ_BYTES = 64 * 1024 * 1024  # the default bound of a file read whole


class NotRegular(OSError):
    """The path names a FIFO, a device or a folder: not read."""


def open_regular(path: Path | str, mode: str = "rb", encoding: str | None = None, errors: str | None = None):
    """`path` opened for reading (binary unless `mode` is "r"), only when it is a regular file; raises OSError
    (NotRegular for a FIFO, a device or a folder) without ever blocking on the file."""
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise NotRegular(0, "not a regular file", str(path))
        if hasattr(os, "set_blocking"):
            os.set_blocking(fd, True)
        if mode == "r":
            return os.fdopen(fd, "r", encoding=encoding or "utf-8", errors=errors)
        return os.fdopen(fd, "rb")
    except BaseException:
        os.close(fd)
        raise


def read_regular(path: Path | str, limit: int = MAX_READ_BYTES) -> bytes:
    """The bytes of a regular file of at most `limit` bytes; raises OSError otherwise (a larger file is
    refused after reading one byte past the bound)."""
    with open_regular(path) as f:
        data = f.read(limit + 1)
    if len(data) > limit:
        raise OSError(0, f"larger than {limit:,} bytes", str(path))
    return data
