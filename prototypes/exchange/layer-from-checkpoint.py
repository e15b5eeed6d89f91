#!/usr/bin/env python3
"""The states of a knights checkpoint (`--checkpoint`) as raw records: key then count, each a
little-endian u64 (a layer of u64 keys and 8-byte counts, as 7x8's). Usage: CHECKPOINT OUT."""
import json
import struct
import sys


def main():
    if len(sys.argv) != 3:
        sys.exit("usage: layer-from-checkpoint.py CHECKPOINT OUT")
    with open(sys.argv[1], "rb") as f, open(sys.argv[2], "wb") as out:
        if f.read(8) != b"KNPASS01":
            sys.exit("error: not a knights checkpoint")
        (length,) = struct.unpack("<Q", f.read(8))
        header = json.loads(f.read(length))
        left = header["states"] * 16
        while left:
            chunk = f.read(min(left, 1 << 24))
            if not chunk:
                sys.exit("error: the checkpoint is cut short")
            out.write(chunk)
            left -= len(chunk)
    print(f"{header['states']} states")


main()
