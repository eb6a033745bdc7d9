#!/usr/bin/env bash
set -euo pipefail

if [ "$#" -ne 1 ]; then
    echo "error: expected the text as ONE quoted argument, got $# arguments" >&2
    echo "usage: count.sh \"TEXT\"" >&2
    exit 2
fi
text="$1"
total=${#text}
nospace=${text// /}
echo "$total characters (${#nospace} without spaces)"
