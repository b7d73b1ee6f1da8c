import sys

from games.cli import main

sys.exit(main())
