"""Write kg_count/resources/area_codes.tsv: each US telephone area code and the postal code of the state it serves.

Read from the geocoding data of the `phonenumbers` package (Apache License 2.0; a port of Google's libphonenumber),
which names each North American area code's region ("Mississippi", "Washington State", "New York, NY"); codes of
Canada, the Caribbean and toll-free or non-geographic numbers name no state and are left out. `phonenumbers` is
needed only to run this script, not by kg_count: `pip install phonenumbers` first.

Usage: python scripts/make_area_codes.py [--out kg_count/resources/area_codes.tsv]
"""

from __future__ import annotations

import argparse
import importlib.metadata
import re
from pathlib import Path

import us

SPECIAL = {"Washington State": "WA", "Washington D.C.": "DC"}


def state_code(region: str) -> str | None:
    """The postal code of the US state (or DC) a geocoding description names; None for any other region."""
    if region in SPECIAL:
        return SPECIAL[region]
    written = re.search(r", ([A-Z]{2})$", region)
    state = us.states.lookup(written.group(1) if written else region)
    return state.abbr if state else None


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=Path(__file__).parents[1] / "kg_count/resources/area_codes.tsv")
    args = parser.parse_args()
    from phonenumbers.geodata import GEOCODE_DATA

    rows = []
    for prefix, names in sorted(GEOCODE_DATA.items()):
        if len(prefix) == 4 and prefix.startswith("1") and (code := state_code(names.get("en", ""))):
            rows.append(f"{prefix[1:]}\t{code}\n")
    version = importlib.metadata.version("phonenumbers")
    header = f"# US area code -> state postal code; phonenumbers {version} (Apache-2.0), scripts/make_area_codes.py\n"
    args.out.write_text(header + "".join(rows), encoding="utf-8")
    print(f"{len(rows)} area codes -> {args.out}")


if __name__ == "__main__":
    main()
