import sys

from navbench.cli import main

sys.exit(main())
