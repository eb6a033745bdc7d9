#!/usr/bin/env python3
"""Port <-> service, from references/services.yaml (a flat YAML map, read without PyYAML)."""
import pathlib
import re
import sys

TABLE = pathlib.Path(__file__).resolve().parent.parent / "references" / "services.yaml"
LINE = re.compile(r'([\w-]+):\s*\{port:\s*(\d+),\s*proto:\s*(\w+),\s*what:\s*"([^"]*)"\}')

services = {}
for line in TABLE.read_text(encoding="utf-8").splitlines():
    m = LINE.match(line.strip())
    if m:
        services[m[1]] = (int(m[2]), m[3], m[4])

if len(sys.argv) != 2:
    sys.exit("usage: port.py SERVICE_OR_PORT")
query = sys.argv[1].strip()
if query.isdigit():
    hits = [(name, info) for name, info in services.items() if info[0] == int(query)]
    if not hits:
        sys.exit(f"port.py: no service listed for port {query}")
else:
    if query.lower() not in services:
        sys.exit(f"port.py: {query!r} is not a service name in references/services.yaml")
    hits = [(query.lower(), services[query.lower()])]
for name, (port, proto, what) in hits:
    print(f"{name}: {port}/{proto} ({what})")
