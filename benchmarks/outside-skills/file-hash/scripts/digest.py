#!/usr/bin/env python3
import argparse, hashlib
p = argparse.ArgumentParser()
p.add_argument("--algo", choices=["md5", "sha1", "sha256"], required=True)
p.add_argument("file")
a = p.parse_args()
with open(a.file, "rb") as f:
    print(f"{a.algo} {hashlib.new(a.algo, f.read()).hexdigest()}  {a.file}")
