"""Screenshot an HTML report the way a person sees it, in headless Chromium (Debian's ``chromium``).

    python scripts/screenshot_report.py out/report/index.html out/report.png [--width 1400 --height 2400]

Reads the page from disk (no network: background services are switched off) and writes a PNG.
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--hide-scrollbars",
]


def screenshot(page: Path, png: Path, width: int, height: int) -> None:
    """Render ``page`` at ``width`` x ``height`` CSS pixels into ``png``; SystemExit when Chromium is missing."""
    browser = shutil.which("chromium") or shutil.which("chromium-browser")
    if browser is None:
        sys.exit("chromium not found: apt-get install -y chromium")
    with tempfile.TemporaryDirectory() as profile:
        subprocess.run(
            [
                browser,
                *FLAGS,
                f"--user-data-dir={profile}",
                f"--window-size={width},{height}",
                f"--screenshot={png.resolve()}",
                page.resolve().as_uri(),
            ],
            check=True,
            capture_output=True,
            timeout=120,
        )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("page", type=Path)
    parser.add_argument("png", type=Path)
    parser.add_argument("--width", type=int, default=1400)
    parser.add_argument("--height", type=int, default=2400)
    args = parser.parse_args()
    screenshot(args.page, args.png, args.width, args.height)
    print(f"{args.page} -> {args.png}")


if __name__ == "__main__":
    main()
