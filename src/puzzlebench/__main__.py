"""``python -m puzzlebench`` runs the command line (as the ``puzzlebench`` script does).

``python -m`` puts the current folder first on the module path; it is taken off before any
other module loads (a ``json.py`` or ``select.py`` there would otherwise run in the harness and
reach every process it starts), unless the puzzlebench being run comes from that folder.
"""

import os
import sys

if (not sys.flags.safe_path and sys.path
        and os.path.realpath(sys.path[0] or os.curdir) == os.path.realpath(os.getcwd())
        and os.path.dirname(os.path.dirname(os.path.realpath(__file__)))
        != os.path.realpath(os.getcwd())):
    del sys.path[0]

from puzzlebench.console import main  # after the path is made safe

main()
