import signal
import sys

from games.cli import main

# Piped into `head` and the like: stop quietly when the reader goes away.
signal.signal(signal.SIGPIPE, signal.SIG_DFL)
sys.exit(main())
