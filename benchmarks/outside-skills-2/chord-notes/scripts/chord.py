#!/usr/bin/env python3
import argparse

SHARPS = ["C", "C#", "D", "D#", "E", "F", "F#", "G", "G#", "A", "A#", "B"]
FLATS = ["C", "Db", "D", "Eb", "E", "F", "Gb", "G", "Ab", "A", "Bb", "B"]
FLAT_ROOTS = {"F", "Bb", "Eb", "Ab", "Db", "Gb"}
INTERVALS = {
    "maj": (0, 4, 7),
    "min": (0, 3, 7),
    "dim": (0, 3, 6),
    "aug": (0, 4, 8),
    "sus4": (0, 5, 7),
    "dom7": (0, 4, 7, 10),
    "maj7": (0, 4, 7, 11),
    "min7": (0, 3, 7, 10),
}


def note_name(text):
    name = text[:1].upper() + text[1:]
    if name not in SHARPS and name not in FLATS:
        raise argparse.ArgumentTypeError(f"{text!r} is not a note name (C, C#, Db, D, ... B)")
    return name


parser = argparse.ArgumentParser(description="Notes of a chord.")
parser.add_argument("root", type=note_name, help="root note, e.g. C, F#, Bb")
parser.add_argument("quality", choices=list(INTERVALS), help="chord quality")
args = parser.parse_args()
index = SHARPS.index(args.root) if args.root in SHARPS else FLATS.index(args.root)
minor = args.quality in ("min", "dim", "min7")
use_flats = "b" in args.root[1:] or args.root in FLAT_ROOTS or (minor and args.root in {"C", "G", "D"})
table = FLATS if use_flats else SHARPS
notes = [table[(index + step) % 12] for step in INTERVALS[args.quality]]
print(f"{args.root} {args.quality}: {' '.join(notes)}")
