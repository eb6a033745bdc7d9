#!/usr/bin/env python3
import argparse
import ipaddress

parser = argparse.ArgumentParser(description="IPv4 subnet details.")
parser.add_argument("network", help="e.g. 10.0.0.0/8")
parser.add_argument("--loose", action="store_true", help="accept a host address and use its network")
args = parser.parse_args()

if "/" not in args.network:
    parser.error(f"{args.network!r} has no /PREFIX (write it as e.g. 10.1.0.0/16)")
try:
    net = ipaddress.IPv4Network(args.network, strict=not args.loose)
except ValueError as exc:
    parser.error(f"{args.network!r}: {exc}")

print(f"network    {net.network_address}/{net.prefixlen}")
print(f"netmask    {net.netmask}")
if net.prefixlen >= 31:
    kind = "point-to-point link" if net.prefixlen == 31 else "single host"
    print(f"hosts      {net.num_addresses} ({kind})")
else:
    hosts = list(net.hosts()) if net.num_addresses <= 4096 else None
    first = hosts[0] if hosts else net.network_address + 1
    last = hosts[-1] if hosts else net.broadcast_address - 1
    print(f"broadcast  {net.broadcast_address}")
    print(f"usable     {first} - {last}")
    print(f"hosts      {net.num_addresses - 2}")
