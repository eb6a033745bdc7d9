#!/usr/bin/env python3
import sys
n = int(sys.argv[1])
f = next((d for d in range(2, int(n ** 0.5) + 1) if n % d == 0), None)
print(f"{n} is prime" if f is None and n > 1 else f"{n} is not prime ({f} x {n // f})" if f else f"{n} is not prime")
