#!/usr/bin/env bash
# Usable RAID capacity: raid.sh LEVEL DRIVES SIZE_TB
set -euo pipefail

usage() { echo "usage: raid.sh LEVEL DRIVES SIZE_TB   (e.g. raid.sh 6 8 4)" >&2; exit 2; }
[ "$#" -eq 3 ] || usage
level="$1"; drives="$2"; size="$3"
[[ "$drives" =~ ^[0-9]+$ ]] || { echo "raid.sh: DRIVES must be a whole number, got '$drives'" >&2; usage; }
[[ "$size" =~ ^[0-9]+(\.[0-9]+)?$ ]] || { echo "raid.sh: SIZE_TB must be a number of terabytes, got '$size'" >&2; usage; }

case "$level" in
    0)  min=2; data=$drives; survive=0 ;;
    1)  min=2; data=1; survive=$((drives - 1)) ;;
    5)  min=3; data=$((drives - 1)); survive=1 ;;
    6)  min=4; data=$((drives - 2)); survive=2 ;;
    10) min=4; data=$((drives / 2)); survive=1
        [ $((drives % 2)) -eq 0 ] || { echo "raid.sh: RAID 10 needs an even number of drives" >&2; exit 1; } ;;
    *)  echo "raid.sh: unknown RAID level '$level'" >&2; usage ;;
esac
if [ "$drives" -lt "$min" ]; then
    echo "raid.sh: RAID $level needs at least $min drives, got $drives" >&2
    exit 1
fi
usable=$(awk -v d="$data" -v s="$size" 'BEGIN { printf "%g", d * s }')
echo "RAID $level, $drives x $size TB: $usable TB usable, survives $survive drive failure(s)"
