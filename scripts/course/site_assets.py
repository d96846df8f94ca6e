"""The browser-side code of the course website, from the npm registry, kept in a local cache.

The site must work with no network at view time, so MathJax (math), RequireJS and the
Jupyter widgets HTML manager (saved widgets) are served from the site itself. axe-core, the
accessibility checker the browser tests inject into every page, is cached the same way but
never copied into the site. Each package is
fetched once with ``npm pack`` at a pinned version, checked against its pinned integrity hash,
and kept as a tarball in ``build/vendor/`` (git-ignored); building the site only unpacks the
tarballs, so builds and tests need no network.

    python scripts/course/site_assets.py            # fetch what is missing, then list the cache
    python scripts/course/site_assets.py --check    # exit 1 (and say why) when something is missing
"""

from __future__ import annotations

import argparse
import base64
import hashlib
import shutil
import subprocess
import sys
import tarfile
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
CACHE = ROOT / "build" / "vendor"


@dataclass(frozen=True)
class Pack:
    """One npm package at a pinned version, and the files of it the site serves."""

    name: str
    version: str
    integrity: str  # npm's sha512 of the tarball
    keep: tuple[str, ...]  # paths inside ``package/`` to copy (files or folders)
    dest: str  # folder under the site's _static/
    strip: str = ""  # leading folder of the kept paths not repeated under ``dest``
    drop: tuple[str, ...] = ()  # files under ``keep`` the site does not need
    site: bool = True  # False: used by the tests only, not copied into the site

    @property
    def tarball(self) -> str:
        """The file name ``npm pack`` writes (scope ``@a/b`` becomes ``a-b``)."""
        return f"{self.name.lstrip('@').replace('/', '-')}-{self.version}.tgz"


PACKS = (
    Pack("mathjax", "3.2.2",
         "sha512-Bt+SSVU8eBG27zChVewOicYs7Xsdt40qm4+UpHyX7k0/O9NliPc+x77k1/FEsPsjKPZGJvtRZM1vO+geW0OhGw==",
         # The combined component plus what it loads on demand (TeX extensions, fonts, menu,
         # accessibility); the other combined builds are left out.
         ("es5/tex-mml-chtml.js", "es5/input", "es5/output/chtml", "es5/ui", "es5/a11y", "es5/sre"),
         "mathjax", strip="es5/"),
    Pack("requirejs", "2.3.7",
         "sha512-DouTG8T1WanGok6Qjg2SXuCMzszOo0eHeH9hDZ5Y4x8Je+9JB38HdTLT4/VA8OaUhBa0JPVHJ0pyBkM1z+pDsw==",
         ("require.js",), "widgets"),
    Pack("@jupyter-widgets/html-manager", "1.0.15",
         "sha512-5thBIV6ymNgmPVOHvzx+gGy8ZSKmSazhtGw4/c4xJDVzRhG9PTeQsRjF3FUTopvFi//SABeNz1yp47bCrJ3CQA==",
         # embed-amd.js (the manager with the standard controls) and its icon fonts.
         ("dist",), "widgets/html-manager", strip="dist/",
         drop=("dist/embed.js", "dist/embed.js.map", "dist/libembed-amd.js")),
    Pack("axe-core", "4.14.1",
         "sha512-FHfa+lmNjQZfJz1q8wKqIDwC6DExcHt/pkjNQb09a3NPjCKg2rhu5qb2S4r76ASyFNNtuFooJpZe37OgudVGtQ==",
         ("axe.min.js",), "", site=False),
)


def integrity_of(path: Path) -> str:
    """npm's integrity string (``sha512-<base64>``) of a file."""
    digest = hashlib.sha512(path.read_bytes()).digest()
    return "sha512-" + base64.b64encode(digest).decode()


def missing(cache: Path = CACHE) -> list[Pack]:
    """The packs whose tarball is absent from the cache or does not match its pinned hash."""
    return [p for p in PACKS
            if not (cache / p.tarball).is_file() or integrity_of(cache / p.tarball) != p.integrity]


def fetch(cache: Path = CACHE) -> None:
    """Fetch every missing pack with ``npm pack`` into ``cache`` and check its integrity."""
    todo = missing(cache)
    if not todo:
        return
    npm = shutil.which("npm")
    if npm is None:
        raise SystemExit("site_assets: npm is needed once to fetch "
                         + ", ".join(f"{p.name}@{p.version}" for p in todo)
                         + " (Debian: apt-get install npm)")
    cache.mkdir(parents=True, exist_ok=True)
    for p in todo:
        print(f"site_assets: npm pack {p.name}@{p.version}")
        subprocess.run([npm, "pack", "--silent", f"{p.name}@{p.version}",
                        "--pack-destination", str(cache)], check=True, stdout=subprocess.DEVNULL)
        got = integrity_of(cache / p.tarball)
        if got != p.integrity:
            (cache / p.tarball).unlink()
            raise SystemExit(
                f"site_assets: {p.tarball} has integrity {got}, expected {p.integrity}")


def unpack(static: Path, cache: Path = CACHE) -> None:
    """Copy the kept files of every pack from the cached tarballs into ``static``."""
    absent = missing(cache)
    if absent:
        raise FileNotFoundError(
            f"not in {cache}: " + ", ".join(p.tarball for p in absent)
            + "; run `python scripts/course/site_assets.py` (or `bash scripts/site.sh`) once")
    for p in PACKS:
        if not p.site:
            continue
        dest = static / p.dest
        with tarfile.open(cache / p.tarball) as tar:
            for member in tar.getmembers():
                rel = member.name.removeprefix("package/")
                if not member.isfile() or rel in p.drop or not any(
                        rel == k or rel.startswith(k + "/") for k in p.keep):
                    continue
                target = dest / rel.removeprefix(p.strip)
                target.parent.mkdir(parents=True, exist_ok=True)
                src = tar.extractfile(member)
                assert src is not None
                target.write_bytes(src.read())


def read(name: str, path: str, cache: Path = CACHE) -> bytes:
    """The file ``package/<path>`` of the cached pack ``name``, checked against its hash."""
    pack = next((p for p in PACKS if p.name == name), None)
    if pack is None:
        raise KeyError(f"no pack named {name!r}; packs: {', '.join(p.name for p in PACKS)}")
    if pack in missing(cache):
        raise FileNotFoundError(f"{pack.tarball} is not in {cache} (or does not match its "
                                "pinned hash); run `python scripts/course/site_assets.py` once")
    with tarfile.open(cache / pack.tarball) as tar:
        src = tar.extractfile(f"package/{path}")
        if src is None:
            raise FileNotFoundError(f"package/{path} in {pack.tarball}")
        return src.read()


def main(argv: list[str] | None = None) -> int:
    """Fetch the missing packs (or, with --check, only report them)."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--check", action="store_true", help="only report missing packs")
    args = ap.parse_args(argv)
    if args.check:
        absent = missing()
        for p in absent:
            print(f"site_assets: missing {p.tarball}", file=sys.stderr)
        return 1 if absent else 0
    fetch()
    print(f"site_assets: {len(PACKS)} packages ready in {CACHE.relative_to(ROOT)}/")
    return 0


if __name__ == "__main__":
    sys.exit(main())
