#!/usr/bin/env python3
import http, sys
code = int(sys.argv[1])
try:
    s = http.HTTPStatus(code)
except ValueError:
    sys.exit(f"unknown status {code}")
print(f"{code} {s.phrase}: {s.description}")
