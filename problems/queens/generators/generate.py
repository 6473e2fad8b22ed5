"""Write the secret tests of `queens`: `python3 generators/generate.py OUTDIR`.

Only twelve inputs exist (N = 1 ... 12). The samples hold N = 4 and N = 8 (the seed's
board); the secret tests are the ten other values, so samples and secret together judge
every N exactly once. No randomness is needed: every run writes the same bytes.
Files: `OUTDIR/NN-nK.in`, each the line `K`.
"""

import os
import sys

MAX_SIZE = 12
SAMPLE_SIZES = (4, 8)


def secret_sizes():
    """Return the board sizes of the secret tests, in judging order (small to large)."""
    return [size for size in range(1, MAX_SIZE + 1) if size not in SAMPLE_SIZES]


def main():
    """Write each secret input to OUTDIR (the first argument)."""
    out_dir = sys.argv[1]
    os.makedirs(out_dir, exist_ok=True)
    for number, size in enumerate(secret_sizes(), start=1):
        with open(os.path.join(out_dir, f"{number:02d}-n{size}.in"), "w", newline="\n") as test_file:
            test_file.write(f"{size}\n")


if __name__ == "__main__":
    main()
