"""Check an exported game bundle with nothing but Python and this repository's ``games/`` folder:

    python3 -I -S games/verify_log.py hadal-game-17.json

The check itself is games/records/verify.py (``manage.py verify_log FILE`` runs the same); this
file is where DESIGN.md's contract and the golden corpus's README point. It exits 0 and says what
it checked, 1 when the bundle fails (saying where), 2 when it cannot read the file.
"""

from __future__ import annotations

import sys
from pathlib import Path

if __package__ in (None, ""):  # run as a script (under -I the script's folder is not on the path)
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from games.records.verify import main  # noqa: E402

if __name__ == "__main__":
    sys.exit(main())
