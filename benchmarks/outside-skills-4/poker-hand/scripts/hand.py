#!/usr/bin/env python3
import sys
from collections import Counter

RANKS = "23456789TJQKA"
SUITS = "shdc"
NAMES = ["high card", "one pair", "two pair", "three of a kind", "straight", "flush",
         "full house", "four of a kind", "straight flush"]
PLURAL = {"2": "twos", "3": "threes", "4": "fours", "5": "fives", "6": "sixes", "7": "sevens",
          "8": "eights", "9": "nines", "T": "tens", "J": "jacks", "Q": "queens", "K": "kings",
          "A": "aces"}


def parse(cards):
    if len(cards) != 5:
        sys.exit(f"hand.py: a hand is 5 cards, got {len(cards)}")
    for card in cards:
        if len(card) != 2 or card[0] not in RANKS or card[1] not in SUITS:
            sys.exit(f"hand.py: bad card {card!r}")
    if len(set(cards)) != 5:
        sys.exit("hand.py: the same card appears twice")
    return cards


def score(cards):
    values = sorted((RANKS.index(c[0]) for c in cards), reverse=True)
    counts = Counter(values)
    groups = sorted(counts.items(), key=lambda kv: (kv[1], kv[0]), reverse=True)
    flush = len({c[1] for c in cards}) == 1
    straight_high = None
    if len(counts) == 5:
        if values[0] - values[4] == 4:
            straight_high = values[0]
        elif values == [12, 3, 2, 1, 0]:
            straight_high = 3
    shape = [n for _, n in groups]
    if straight_high is not None and flush:
        category = 8
    elif shape[0] == 4:
        category = 7
    elif shape == [3, 2]:
        category = 6
    elif flush:
        category = 5
    elif straight_high is not None:
        category = 4
    elif shape[0] == 3:
        category = 3
    elif shape[:2] == [2, 2]:
        category = 2
    elif shape[0] == 2:
        category = 1
    else:
        category = 0
    tiebreak = [straight_high] if straight_high is not None else [v for v, _ in groups]
    return category, tiebreak


def describe(cards):
    category, tiebreak = score(cards)
    name = NAMES[category]
    if category == 8 and tiebreak[0] == 12:
        return "royal flush"
    if category == 6:
        return f"{name}, {PLURAL[RANKS[tiebreak[0]]]} full of {PLURAL[RANKS[tiebreak[1]]]}"
    if category in (1, 3, 7):
        return f"{name}, {PLURAL[RANKS[tiebreak[0]]]}"
    if category == 2:
        return f"{name}, {PLURAL[RANKS[tiebreak[0]]]} and {PLURAL[RANKS[tiebreak[1]]]}"
    return f"{name}, {RANKS[tiebreak[0]]} high"


args = sys.argv[1:]
if not args:
    sys.exit("usage: hand.py CARD CARD CARD CARD CARD [--vs CARD CARD CARD CARD CARD]")
if "--vs" in args:
    i = args.index("--vs")
    first, second = parse(args[:i]), parse(args[i + 1:])
    a, b = score(first), score(second)
    print(f"hand 1: {describe(first)}")
    print(f"hand 2: {describe(second)}")
    print("hand 1 wins" if a > b else "hand 2 wins" if b > a else "split pot")
else:
    print(describe(parse(args)))
