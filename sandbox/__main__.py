import os
import sys

from sandbox.cli import main

# Not SIGPIPE's default action: the referee writes to bots' pipes, and a bot closing its
# stdin must be an EPIPE it handles, never a signal that kills the referee. Only our own
# stdout going away (piped into `head`) ends the run quietly.
try:
    sys.exit(main())
except BrokenPipeError:
    os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    sys.exit(1)
