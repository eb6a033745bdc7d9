#!/usr/bin/env python3
import sys
lines = open(sys.argv[1], encoding="utf-8").read().splitlines()
blank = sum(not l.strip() for l in lines)
comments = sum(l.strip().startswith("#") for l in lines)
print(f"{sys.argv[1]}: {len(lines)} lines, {blank} blank, {comments} comments")
