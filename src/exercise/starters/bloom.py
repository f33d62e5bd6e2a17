#!/usr/bin/env python3
# {TITLE}, as a program.
# It reads ADD, CHECK and BITS lines on stdin and writes its answers on stdout.
#
# {MADE_BY}
# Reading the commands and writing the answers are done. Fill in the two parts
# marked TODO, then grade it:
#   {GRADE}
import sys

M = {M}  # bits in the filter
K = {K}  # positions per key


# ---- TODO 1 of 2: the bit array ----
# Keep M bits, all 0 at the start: set_bit(p) sets bit p to 1, and
# bit_is_set(p) says whether bit p is 1. A list of M numbers will do.
def set_bit(p):
    pass


def bit_is_set(p):
    return False
# ---- end of TODO 1 ----


# ---- TODO 2 of 2: the key's positions ----
# key is bytes. Return its K positions, each from 0 to M-1, in this order:
{RULES}
def positions(key):
    return [0] * K
# ---- end of TODO 2 ----


def main():
    out = sys.stdout
    # Bytes, not text: keys are hashed as the bytes they are.
    for line in sys.stdin.buffer:
        if line.endswith(b"\n"):
            line = line[:-1]
        if line.endswith(b"\r"):
            line = line[:-1]
        # The key is everything after the first space, spaces and all.
        command, _, key = line.partition(b" ")
        if command == b"ADD":
            for p in positions(key):
                set_bit(p)
        elif command == b"CHECK":
            # MAYBE only when every one of the key's bits is 1.
            if all(bit_is_set(p) for p in positions(key)):
                out.write("MAYBE\n")
            else:
                out.write("NO\n")
        elif command == b"BITS":
            # Bit 0 first.
            bits = ("1" if bit_is_set(p) else "0" for p in range(M))
            out.write("".join(bits) + "\n")
        else:
            print("unknown command:", command, file=sys.stderr)


main()
