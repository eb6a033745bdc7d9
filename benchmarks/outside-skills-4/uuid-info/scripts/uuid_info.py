#!/usr/bin/env python3
import datetime
import sys
import uuid

KINDS = {1: "time-based", 2: "DCE security", 3: "name-based, MD5", 4: "random",
         5: "name-based, SHA-1", 6: "reordered time-based", 7: "Unix-time-ordered", 8: "custom"}
GREGORIAN_OFFSET = 0x01B21DD213814000  # 100-ns ticks from 1582-10-15 to 1970-01-01

if len(sys.argv) != 2:
    sys.exit("usage: uuid_info.py UUID")
try:
    u = uuid.UUID(sys.argv[1])
except ValueError:
    sys.exit(f"uuid_info.py: {sys.argv[1]!r} is not a UUID (32 hex digits, usually 8-4-4-4-12)")
if u.variant != uuid.RFC_4122:
    print(f"variant {u.variant}: no version field")
    sys.exit(0)
version = u.version
parts = [f"version {version} ({KINDS.get(version, 'unknown')})", "variant RFC 4122"]
seconds = None
if version == 1:
    seconds = (u.time - GREGORIAN_OFFSET) / 1e7
elif version == 6:
    ticks = (u.int >> 96) << 28 | ((u.int >> 80) & 0xFFFF) << 12 | ((u.int >> 64) & 0xFFF)
    seconds = (ticks - GREGORIAN_OFFSET) / 1e7
elif version == 7:
    seconds = (u.int >> 80) / 1000
if seconds is not None:
    moment = datetime.datetime.fromtimestamp(seconds, datetime.timezone.utc)
    parts.append(f"created {moment:%Y-%m-%d %H:%M:%S} UTC")
print(", ".join(parts))
