"""Build the compiled rules core (docs/engine.md): the engine's modules through mypyc.

    python tools/compile_core.py          # builds src/truco/_compiled/, about a minute
    python tools/compile_core.py --check  # exits 0 when the build there is current

The pure-Python modules stay where they are and stay the source of truth: the compiled
build is the same code, type-checked and translated to C. :mod:`truco` uses it when it is
present and built from the very sources beside it (a hash of them is stamped in the build),
and ``TRUCO_PURE=1`` turns it off. Needs a C compiler and Python's headers; without them
this command fails and everything runs on the pure core.
"""

from __future__ import annotations

import argparse
import os
import shutil
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SRC = ROOT / "src"
sys.path.insert(0, str(SRC))

from truco import _core_build  # noqa: E402  (the list of modules and the stamp, one place)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true", help="only say whether it is current")
    args = parser.parse_args()
    if args.check:
        current = _core_build.current(SRC / "truco")
        print("current" if current else "missing or stale")
        return 0 if current else 1
    from mypyc.build import mypycify
    from setuptools import setup

    out = SRC / "truco" / _core_build.FOLDER
    paths = [f"src/truco/{name.replace('.', '/')}.py" for name in _core_build.MODULES]
    with tempfile.TemporaryDirectory() as tmp:
        lib = Path(tmp) / "lib"
        os.chdir(ROOT)
        setup(
            name="truco-compiled-core",
            ext_modules=mypycify(
                paths, opt_level="3", group_name="truco_core", target_dir=str(Path(tmp) / "c")
            ),
            script_args=[
                "--quiet",
                "build_ext",
                "--build-lib",
                str(lib),
                "--build-temp",
                str(Path(tmp) / "temp"),
            ],
        )
        shutil.rmtree(out, ignore_errors=True)
        shutil.copytree(lib, out)
    (out / _core_build.STAMP).write_text(_core_build.digest(SRC / "truco") + "\n")
    print(f"compiled {len(paths)} modules into {out.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
