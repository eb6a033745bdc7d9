#!/usr/bin/env bash
# Symbolic permissions (rwxr-x---) to the octal mode chmod takes.
set -euo pipefail

if [ "$#" -ne 1 ]; then
    echo "usage: octal.sh PERMS   (nine characters, e.g. rwxr-x---)" >&2
    exit 2
fi
perms="$1"
if ! [[ "$perms" =~ ^[r-][w-][x-][r-][w-][x-][r-][w-][x-]$ ]]; then
    echo "octal.sh: '$perms' is not nine characters of r, w, x or - in rwx order" >&2
    exit 1
fi
mode=""
for start in 0 3 6; do
    digit=0
    [ "${perms:$start:1}" = r ] && digit=$((digit + 4))
    [ "${perms:$((start + 1)):1}" = w ] && digit=$((digit + 2))
    [ "${perms:$((start + 2)):1}" = x ] && digit=$((digit + 1))
    mode="$mode$digit"
done
echo "$mode"
