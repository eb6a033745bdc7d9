#!/usr/bin/env bash
set -eu
if [ "$#" -ne 1 ]; then echo "usage: words.sh FILE" >&2; exit 2; fi
printf '%s: %s words\n' "$1" "$(wc -w < "$1" | tr -d ' ')"
