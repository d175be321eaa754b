#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""pty_run.py COLS STDOUT_FILE STDERR_FILE CMD... -- run CMD with its standard
error on a pseudo-terminal of COLS columns (as when a user runs it in a
terminal) and its standard output in STDOUT_FILE; the raw bytes written to
the terminal go to STDERR_FILE. Exits with CMD's exit code (or 125 when it
could not run). With PTY_RUN_MAXRSS=FILE in the environment, CMD's peak
resident memory (ru_maxrss of wait4, KiB) is written to FILE. Used by
tests/cli/progress_live.sh.
"""
import fcntl
import os
import pty
import struct
import subprocess
import sys
import termios


def main():
    if len(sys.argv) < 5:
        print(__doc__, file=sys.stderr)
        return 125
    cols, out_path, err_path, cmd = int(sys.argv[1]), sys.argv[2], sys.argv[3], sys.argv[4:]
    master, slave = pty.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 24, cols, 0, 0))
    with open(out_path, "wb") as out, open(os.devnull, "rb") as null:
        try:
            child = subprocess.Popen(cmd, stdin=null, stdout=out, stderr=slave)
        except OSError as e:
            print(f"pty_run: {cmd[0]}: {e}", file=sys.stderr)
            return 125
    os.close(slave)
    data = bytearray()
    while True:
        try:
            chunk = os.read(master, 65536)
        except OSError:  # EIO: every writer of the terminal has closed it
            break
        if not chunk:
            break
        data += chunk
    os.close(master)
    _, status, usage = os.wait4(child.pid, 0)
    rc = os.waitstatus_to_exitcode(status)
    child.returncode = rc
    if os.environ.get("PTY_RUN_MAXRSS"):
        with open(os.environ["PTY_RUN_MAXRSS"], "w") as f:
            f.write(f"{usage.ru_maxrss}\n")
    with open(err_path, "wb") as err:
        err.write(data)
    return rc if rc >= 0 else 128 - rc


if __name__ == "__main__":
    sys.exit(main())
