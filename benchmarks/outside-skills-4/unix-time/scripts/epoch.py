#!/usr/bin/env python3
import argparse
import datetime

UTC = datetime.timezone.utc

parser = argparse.ArgumentParser(prog="epoch.py", description="Unix time <-> UTC date and time.")
sub = parser.add_subparsers(dest="command", required=True)
to_date = sub.add_parser("to-date", help="seconds since 1970 to a UTC date")
to_date.add_argument("seconds")
to_epoch = sub.add_parser("to-epoch", help="a UTC date and time to seconds since 1970")
to_epoch.add_argument("moment", help="YYYY-MM-DD HH:MM[:SS]")
args = parser.parse_args()

if args.command == "to-date":
    try:
        value = int(args.seconds)
    except ValueError:
        parser.error(f"to-date needs whole seconds, not {args.seconds!r}")
    if abs(value) >= 10**12:
        value //= 1000
    moment = datetime.datetime.fromtimestamp(value, UTC)
    print(f"{value} = {moment:%Y-%m-%d %H:%M:%S} UTC ({moment:%A})")
else:
    for fmt in ("%Y-%m-%d %H:%M:%S", "%Y-%m-%d %H:%M", "%Y-%m-%d"):
        try:
            moment = datetime.datetime.strptime(args.moment, fmt).replace(tzinfo=UTC)
            break
        except ValueError:
            continue
    else:
        parser.error(f"to-epoch: {args.moment!r} is not YYYY-MM-DD HH:MM")
    print(f"{moment:%Y-%m-%d %H:%M:%S} UTC = {int(moment.timestamp())}")
