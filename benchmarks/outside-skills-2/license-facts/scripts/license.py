#!/usr/bin/env python3
"""Summary of an open-source license by SPDX id."""
import sys

LICENSES = {
    "MIT": ("permissive", "no", "no", "keep the copyright and license notice"),
    "BSD-3-Clause": ("permissive", "no", "no", "keep the notice; no endorsement using the authors' names"),
    "Apache-2.0": ("permissive", "no", "yes", "keep the notice and NOTICE file; state changes"),
    "MPL-2.0": ("weak copyleft", "modified files only", "yes", "keep the notice; share source of changed MPL files"),
    "LGPL-3.0-only": ("weak copyleft", "changes to the library", "yes", "allow relinking; share library changes"),
    "GPL-2.0-only": ("strong copyleft", "whole work when distributed", "no", "ship source under GPL-2.0"),
    "GPL-3.0-or-later": ("strong copyleft", "whole work when distributed", "yes", "ship source under GPL-3.0"),
    "AGPL-3.0-only": ("strong copyleft", "whole work, also over a network", "yes", "offer source to network users"),
}

if len(sys.argv) != 2:
    sys.exit("usage: license.py SPDX_ID   (ids: references/LICENSES.md)")
spdx = sys.argv[1]
if spdx not in LICENSES:
    close = [k for k in LICENSES if k.lower() == spdx.lower()]
    hint = f" (did you mean {close[0]}?)" if close else ""
    sys.exit(f"error: unknown SPDX id {spdx!r}{hint}; known: {', '.join(LICENSES)}")
family, share, patents, duty = LICENSES[spdx]
print(f"{spdx}: {family}")
print(f"  must share changes: {share}")
print(f"  explicit patent grant: {patents}")
print(f"  main duty: {duty}")
