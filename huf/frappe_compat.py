"""What differs between the two Frappe lines Huf runs on, 15 and 16, in one place (docs/frappe-versions.md).

Huf otherwise uses only names and behaviour both lines share; Frappe Lite behaves as 16 where they differ.
"""

from __future__ import annotations

import frappe

FRAPPE_MAJOR = int(frappe.__version__.split(".", 1)[0])

# has_permission hooks. Frappe 16 asks every hook of a DocType and denies when one answers a false value
# (None included). Frappe 15 asks them from the last one and takes the first answer that is not None, so
# a hook answering True there silences every hook asked after it. A hook that only denies answers False
# to deny and NO_OBJECTION otherwise: True on 16, None on 15 (Frappe then asks the next hook, and with no
# answer left it goes by role permissions alone).
NO_OBJECTION: bool | None = True if FRAPPE_MAJOR >= 16 else None
