#!/usr/bin/env python3
import json, sys
field, records = sys.argv[1], json.loads(sys.argv[2])
print(f"total {field}: {sum(r.get(field, 0) for r in records):g}")
