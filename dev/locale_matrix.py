"""The locale and encoding matrix (issue 30, item 4): `rulesdsl build`, `check` and `export` under
every locale and UTF-8 mode, in a project whose path holds non-ASCII characters and spaces;
every run must exit 0 without a traceback, and every build write (and every export print) the
same bytes.

Run: python dev/locale_matrix.py            the long run: every bundled ruleset, every
                                               locale found (POSIX, C, C.UTF-8, fr_FR.UTF-8)
                                               x PYTHONUTF8=0 and 1
     python dev/locale_matrix.py --quick    the suite's run: d20_movement only, POSIX
                                               without UTF-8 mode against C.UTF-8 with it
                                               (whose build the committed generated/ stands
                                               for when the POSIX build wrote its bytes)
Exit 0 when every run passed, 1 otherwise (each failure printed).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
LOCALES = ("POSIX", "C", "C.UTF-8", "fr_FR.UTF-8")
QUICK = (("POSIX", "0"), ("C.UTF-8", "1"))
EXPORT = "export (stdout)"


def available(name: str) -> bool:
    """Whether the C library has the locale (POSIX and C always exist)."""
    if name in ("POSIX", "C"):
        return True
    found = subprocess.run(["locale", "-a"], capture_output=True, text=True, check=False).stdout
    wanted = name.lower().replace("-", "")
    return any(line.lower().replace("-", "") == wanted for line in found.splitlines())


def environment(locale: str, utf8: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("LC_", "LANG"))}
    env.update(LC_ALL=locale, PYTHONUTF8=utf8)
    env.pop("PYTHONIOENCODING", None)
    return env


def run(args: list[str], cwd: Path, env: dict[str, str]) -> tuple[int, bytes, str]:
    done = subprocess.run(
        [sys.executable, "-m", "rulesdsl", *args],
        cwd=cwd,
        env=env,
        capture_output=True,
        check=False,
    )
    return done.returncode, done.stdout, done.stderr.decode("utf-8", "replace")


def files(folder: Path) -> dict[str, bytes]:
    return {
        str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()
    }


def committed(ids: list[str]) -> dict[str, bytes] | None:
    """What a build of ``ids`` alone writes, read from the committed generated/: each output
    the committed manifest lists for them, and a manifest of their entries alone, as the
    build writes it (rulesdsl/builder/manifest.py); None when generated/ lacks any of it."""
    generated = ROOT / "generated"
    try:
        data = json.loads((generated / ".rulesdsl-manifest.json").read_text("utf-8"))
        entries = {rid: data["rulesets"][rid] for rid in ids}
        made = {
            rel: (generated / rel).read_bytes()
            for backends in entries.values()
            for entry in backends.values()
            for rel in entry["outputs"]
        }
    except (OSError, ValueError, KeyError, TypeError):
        return None
    manifest = {"format": data["format"], "rulesets": entries}
    text = json.dumps(manifest, indent=1, sort_keys=True, ensure_ascii=False) + "\n"
    return {".rulesdsl-manifest.json": text.encode(), **made}


def matrix(quick: bool) -> int:
    configs = (
        list(QUICK)
        if quick
        else [(loc, utf8) for loc in LOCALES if available(loc) for utf8 in ("0", "1")]
    )
    skipped = [loc for loc in LOCALES if not available(loc)]
    ids = ["d20_movement"] if quick else []  # French labels, the smallest sheets and decks
    # the quick run renders its 4 PDFs in the build's own process: a pool's workers each set
    # WeasyPrint up again (0.8 s of CPU a build), and render as it does, in the same locale;
    # the pool is tests/test_kill.py's and test_build.py's to test
    jobs = ["-j", "1"] if quick else []
    failures: list[str] = []
    tracebacks = 0
    reference: dict[str, bytes] | None = None
    with tempfile.TemporaryDirectory(prefix="rulesdsl-locale-") as tmp:
        project = Path(tmp) / "mes règles à l'été" / "jeu 1"
        shutil.copytree(ROOT / "rulesets", project / "rulesets")
        for locale, utf8 in configs:
            env = environment(locale, utf8)
            out = project / f"généré {locale} {utf8}"
            label = f"LC_ALL={locale} PYTHONUTF8={utf8}"
            verbs: tuple[list[str], ...] = (
                ["build", *ids, *jobs, "--out", str(out)],
                ["check", *ids],
                ["export", "heavy_gear_house"],  # French labels on stdout
            )
            # the quick run's UTF-8 build writes what a current generated/ holds: when the
            # POSIX build wrote those very bytes, they stand for it; else it builds and the
            # two builds are compared (a stale generated/ costs time, not a failure)
            kept = committed(ids) if quick and reference is not None else None
            if reference is None or kept != {k: v for k, v in reference.items() if k != EXPORT}:
                kept = None
            else:
                print(f"{label:<34} build  the committed generated/ (= the POSIX build)")
                verbs = verbs[1:]
            for verb in verbs:
                code, printed, err = run(verb, project, env)
                tracebacks += err.count("Traceback")
                status = "ok" if code == 0 and "Traceback" not in err else f"exit {code}"
                print(f"{label:<34} {verb[0]:<6} {status}", flush=True)
                if status != "ok":
                    failures.append(f"{label} {verb[0]}: exit {code}\n{err[-3000:]}")
                if verb[0] == "export":
                    built = dict(kept) if kept is not None else files(out) if out.is_dir() else {}
                    built[EXPORT] = printed
            if reference is None:
                reference = built
            elif built != reference:
                differ = sorted(
                    k for k in set(built) | set(reference) if built.get(k) != reference.get(k)
                )
                failures.append(f"{label}: outputs differ from the first run's: {differ[:10]}")
        count = len(reference or {})
    print(
        f"{len(configs)} configurations x build, check and export, {count} outputs compared: "
        f"{len(failures)} failures, {tracebacks} tracebacks"
        + (f"; locales not installed: {', '.join(skipped)}" if skipped else "")
    )
    for failure in failures:
        print(failure, file=sys.stderr)
    return 1 if failures else 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="the suite's short run")
    return matrix(parser.parse_args(argv).quick)


if __name__ == "__main__":
    sys.exit(main())
