"""`make test`: the suite as one pytest process a core, two on the 2-core machines this
project is built for, each running a part of the test files (conftest.py's --part). The
first part prints as it goes, the others when they are done; then one line of totals.
Arguments are passed to every pytest, run from the repo root (where this file's folder is),
so it works from any folder. Exit status: 0 only when every part passed."""
from __future__ import annotations

import os
import re
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PARTS = max(1, min(2, os.cpu_count() or 1))
COUNTED = ("passed", "failed", "errors", "skipped", "xfailed", "xpassed")
NO_TESTS = 5                # pytest's exit status when a part's filter left it nothing


def totals(text: str) -> dict[str, int]:
    """The counts on pytest's closing line ('12 passed, 3 deselected in 4.5s')."""
    closing = [line for line in text.splitlines()
               if re.search(r"\d+ (passed|failed|errors?|skipped|deselected)\b.* in [\d.]+s", line)]
    found: dict[str, int] = {}
    for number, word in re.findall(r"(\d+) (\w+)", closing[-1] if closing else ""):
        word = "errors" if word == "error" else word
        if word in COUNTED:
            found[word] = int(number)
    return found


def run_first(command: list[str]) -> tuple[int, str]:
    """Part 1 in the foreground: its lines are printed as they come, and kept."""
    kept = []
    with subprocess.Popen(command, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True) as proc:
        for line in proc.stdout:
            sys.stdout.write(line)
            sys.stdout.flush()
            kept.append(line)
    return proc.returncode, "".join(kept)


def main(argv: list[str]) -> int:
    command = [sys.executable, "-m", "pytest", *argv]
    if PARTS == 1:
        return subprocess.call(command, cwd=ROOT)
    with tempfile.TemporaryDirectory(prefix="asv-test-parts-") as tmp:
        paths = [os.path.join(tmp, f"part{i}.txt") for i in range(2, PARTS + 1)]
        outs = [open(path, "w+") for path in paths]
        others = [subprocess.Popen([*command, "--part", f"{i}/{PARTS}"], cwd=ROOT, stdout=out, stderr=subprocess.STDOUT)
                  for i, out in zip(range(2, PARTS + 1), outs)]
        print(f"== part 1 of {PARTS} (the rest run beside it and print when done)", flush=True)
        try:
            code, text = run_first([*command, "--part", f"1/{PARTS}"])
            codes, texts = [code], [text]
            for i, (proc, out) in enumerate(zip(others, outs), start=2):
                codes.append(proc.wait())
                out.seek(0)
                texts.append(out.read())
                print(f"\n== part {i} of {PARTS}\n{texts[-1]}", end="", flush=True)
        finally:
            for proc in others:
                if proc.poll() is None:
                    proc.kill()
                    proc.wait()
            for out in outs:
                out.close()
    counts: dict[str, int] = {}
    for text in texts:
        for word, n in totals(text).items():
            counts[word] = counts.get(word, 0) + n
    counts.setdefault("passed", 0)
    counts.setdefault("failed", 0)
    extra = "".join(f", {counts[w]} {w}" for w in COUNTED[2:] if counts.get(w))
    print(f"\ntotal: {counts['passed']} passed, {counts['failed']} failed{extra}", flush=True)
    if all(c == NO_TESTS for c in codes):
        return NO_TESTS
    bad = [c for c in codes if c not in (0, NO_TESTS)]
    return bad[0] if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
