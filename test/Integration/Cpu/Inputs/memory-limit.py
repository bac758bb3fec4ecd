#!/usr/bin/env python3
# ===- memory-limit.py - Run a command under an address-space limit -------===#
#
# memory-limit.py BYTES COMMAND [ARGS...]: runs COMMAND with RLIMIT_AS set
# to BYTES (what `ulimit -v` does), so a test can ask for more memory than
# the limit allows on any machine. Exits with the command's status.
#
# ===----------------------------------------------------------------------===#
import os
import resource
import sys

if len(sys.argv) < 3:
    sys.exit("usage: memory-limit.py BYTES COMMAND [ARGS...]")
limit = int(sys.argv[1])
resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
os.execvp(sys.argv[2], sys.argv[2:])
