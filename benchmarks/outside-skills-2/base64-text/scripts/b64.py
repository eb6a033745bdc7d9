#!/usr/bin/env python3
import argparse
import base64
import binascii
import re
import sys

parser = argparse.ArgumentParser(description="Base64 encode/decode.")
parser.add_argument("--mode", default="encode", choices=["encode", "decode"])
parser.add_argument("text")
args = parser.parse_args()
if args.mode == "encode":
    if len(args.text) >= 8 and re.fullmatch(r"[A-Za-z0-9+/_-]+={0,2}", args.text):
        print("note: this input looks like Base64 already; to decode it use --mode decode",
              file=sys.stderr)
    print(base64.b64encode(args.text.encode("utf-8")).decode("ascii"))
else:
    data = args.text.strip().replace("-", "+").replace("_", "/")
    data += "=" * (-len(data) % 4)
    try:
        print(base64.b64decode(data, validate=True).decode("utf-8"))
    except (binascii.Error, UnicodeDecodeError) as err:
        sys.exit(f"error: {args.text!r} is not Base64 of UTF-8 text ({err})")
