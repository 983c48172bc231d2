"""Command-line entry point for ``hanabi-client`` (placeholder)."""

import sys


def main() -> int:
    print("hanabi-client: not implemented yet", file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main())
