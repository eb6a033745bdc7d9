#!/usr/bin/env python3
import argparse
import base64
import datetime
import json
import sys

TIME_CLAIMS = ("iat", "nbf", "exp", "auth_time")


def decode_part(part):
    padded = part + "=" * (-len(part) % 4)
    return json.loads(base64.urlsafe_b64decode(padded))


parser = argparse.ArgumentParser(
    prog="jwt_peek.py",
    description="Decode a JWT's header and payload (no signature check).",
    epilog="example: jwt_peek.py --dates eyJhbGciOi...")
parser.add_argument("token", help="the encoded token, header.payload.signature")
parser.add_argument("--dates", action="store_true",
                    help="show iat, nbf, exp and auth_time as UTC dates instead of Unix seconds")
parser.add_argument("--header", action="store_true", help="also print the header")
args = parser.parse_args()
parts = args.token.strip().split(".")
if len(parts) != 3:
    sys.exit(f"jwt_peek.py: not a JWT: expected 3 dot-separated parts, found {len(parts)}")
try:
    header, payload = decode_part(parts[0]), decode_part(parts[1])
except (ValueError, json.JSONDecodeError):
    sys.exit("jwt_peek.py: the header or payload is not base64url-encoded JSON")
if args.dates:
    for claim in TIME_CLAIMS:
        if isinstance(payload.get(claim), (int, float)):
            moment = datetime.datetime.fromtimestamp(payload[claim], datetime.timezone.utc)
            payload[claim] = f"{moment:%Y-%m-%d %H:%M:%S} UTC"
if args.header:
    print("header:", json.dumps(header, indent=2))
print(json.dumps(payload, indent=2))
