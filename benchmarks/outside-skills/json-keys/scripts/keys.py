#!/usr/bin/env python3
import json, sys
data = json.load(open(sys.argv[1], encoding="utf-8"))
if not isinstance(data, dict):
    sys.exit("error: the file holds no JSON object")
print(", ".join(data))
print(f"{len(data)} keys")
