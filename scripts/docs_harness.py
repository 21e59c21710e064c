#!/usr/bin/env python3
"""Run the shell and Python code blocks of the docs, as a reader would.

    python3 scripts/docs_harness.py [--venv .venv] [--timeout 600] [FILE.md ...]

Which blocks: the fenced blocks (```` ``` ```` or ``~~~``) tagged ``sh``,
``bash``, ``shell``, ``console`` or ``python`` in README.md,
python-client/README.md and docs/**/*.md (or the files given). Blocks
without a tag, or tagged ``text``, ``go``, ``cpp`` and so on, are not run.

Execution model:

* Each file runs on its own, in a scratch directory that mirrors the
  repository root: a symbolic link to each of its top-level entries but
  ``.git`` (``.venv`` links to the venv of ``--venv``). Paths in the docs
  work as from the root, and the files a block writes at the top level
  (``game.res``, ``AIMine.cc``) land in the scratch directory, emptied
  before the next file and removed at the end (``--keep`` keeps it). Writing
  into a linked directory writes into the repository: ``runs/`` (ignored
  by git) is for that; docs must not write tracked files. ``..`` out of a
  linked directory is the repository's (``cd python-client`` then
  ``../runs`` is the repository's ``runs/``, as ``runs`` is from the top).
  The scratch directory has the same path on every run (Go's build cache
  keys packages by directory), so one harness at a time runs on a tree.
* The blocks of a file run in order. A shell block is one
  ``bash -euo pipefail`` script started in the scratch directory, so a
  ``cd`` or an ``export`` lasts for that block only. ``PATH`` starts with
  the repository's ``bin/`` and the venv's ``bin/`` (``jgym``,
  ``bin/jgym``, ``python``, ``pip`` work), and ``JGYM_QUICK=1`` is set:
  the training scripts and long evaluations the docs show shrink their
  budget to a smoke test. In a ``console`` block the lines starting with
  ``$`` are the commands (a line ending in a backslash continues on the
  next), the other lines are output and are not checked.
* The Python blocks of a file run in order in one interpreter (the venv's
  python), started in the scratch directory, sharing one namespace:
  a block may use what an earlier block of the same file defined.
* Each block gets ``--timeout`` seconds (600 by default). What a file's
  blocks leave running (``jgym serve ... &``) is killed at the end of the
  file: every block runs in its own process group, and the groups, and the
  Python interpreter's, get SIGTERM, then SIGKILL.

Blocks that cannot run (the test suite itself, Docker, a cluster, a server
left in the foreground) are listed in ONE file, docs/untested-blocks.txt, a
line per block::

    docs/file.md  `a unique substring of the block's first non-blank line`  why

A listing that matches no block of its file (stale) or several is an
error. The harness prints what failed (file, line of the block, the last
lines of its output), then
``docs: N blocks run, M passed, K listed as not runnable (...)``, and exits
with 1 when a block failed or a listing is stale, else 0.
"""

from __future__ import annotations

import argparse
import concurrent.futures
import contextlib
import fcntl
import hashlib
import json
import os
import queue
import re
import select
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

SHELL_TAGS = {"sh", "bash", "shell", "console"}
PYTHON_TAGS = {"python"}
UNTESTED = "docs/untested-blocks.txt"
TAIL_LINES = 25
FENCE = re.compile(r"^(?P<indent>\s*)(?P<fence>`{3,}|~{3,})\s*(?P<info>[^`]*)$")
LISTING = re.compile(r"^(?P<file>\S+)\s+`(?P<needle>[^`]+)`\s+(?P<reason>\S.*)$")

# The Python side: one interpreter per file. It reads a JSON request per
# line on stdin, runs the block in the shared namespace, and answers on the
# file descriptor given as its argument. Blocks print to its stdout and
# stderr, a log file of the harness.
DRIVER = r"""
import json, os, sys, traceback
answers = os.fdopen(int(sys.argv[1]), "w")
namespace = {"__name__": "__main__"}
for line in sys.stdin:
    request = json.loads(line)
    error = ""
    try:
        code = compile("\n" * request["offset"] + request["code"], request["file"], "exec")
        exec(code, namespace)
    except BaseException:
        error = traceback.format_exc()
    sys.stdout.flush()
    sys.stderr.flush()
    answers.write(json.dumps({"error": error}) + "\n")
    answers.flush()
"""


@dataclass
class Block:
    """A fenced code block that the harness runs."""

    file: str  # relative to the root, with slashes
    line: int  # 1-based line of the opening fence
    tag: str
    code: str
    first_line: str
    listed: str = ""  # the reason, when listed as not runnable


@dataclass
class Listing:
    """A line of the untested list."""

    file: str
    needle: str
    reason: str
    line: int
    matches: list[Block] = field(default_factory=list)


@dataclass
class Failure:
    """A block that failed, or a problem with the untested list."""

    where: str
    why: str
    tail: str = ""


def find_blocks(root: Path, rel: str) -> list[Block]:
    """Returns the blocks of a Markdown file that have a runnable tag."""
    lines = (root / rel).read_text(encoding="utf-8").split("\n")
    blocks = []
    i = 0
    while i < len(lines):
        m = FENCE.match(lines[i])
        if not m:
            i += 1
            continue
        indent, fence = len(m["indent"]), m["fence"]
        words = m["info"].strip().split()
        tag = words[0].lower().strip("{}.") if words else ""
        j = i + 1
        while j < len(lines):
            close = lines[j].strip()
            if close.startswith(fence[0] * len(fence)) and not close.strip(fence[0]):
                break
            j += 1
        # A fence indented in a list item: its lines lose that indentation.
        body = [unindent(ln, indent) for ln in lines[i + 1 : j]]
        if tag in SHELL_TAGS | PYTHON_TAGS:
            first = next((ln for ln in body if ln.strip()), "")
            blocks.append(Block(rel, i + 1, tag, "\n".join(body) + "\n", first))
        i = j + 1
    return blocks


def unindent(line: str, indent: int) -> str:
    """Removes up to indent leading spaces."""
    return line[min(indent, len(line) - len(line.lstrip(" "))) :]


def console_commands(code: str) -> str:
    """The commands of a console block: its ``$`` lines and their continuations."""
    out = []
    continued = False
    for ln in code.split("\n"):
        if continued:
            cmd = ln[2:] if ln.startswith("> ") else ln
        elif ln.startswith("$ ") or ln == "$":
            cmd = ln[2:]
        else:
            out.append("")  # output: keep the line numbers
            continue
        out.append(cmd)
        continued = cmd.endswith("\\")
    return "\n".join(out)


def read_listings(path: Path) -> tuple[list[Listing], list[Failure]]:
    """Reads the untested list: comments and blank lines are skipped."""
    listings: list[Listing] = []
    problems: list[Failure] = []
    if not path.exists():
        return listings, problems
    for n, raw in enumerate(path.read_text(encoding="utf-8").split("\n"), 1):
        text = raw.strip()
        if not text or text.startswith("#"):
            continue
        m = LISTING.match(text)
        if not m:
            problems.append(Failure(f"{path.name}:{n}", "want: FILE `SUBSTRING` REASON"))
            continue
        listings.append(Listing(m["file"], m["needle"], m["reason"], n))
    return listings, problems


def default_files(root: Path) -> list[str]:
    """README.md, python-client/README.md and docs/**/*.md, those that exist."""
    files = [f for f in ("README.md", "python-client/README.md") if (root / f).is_file()]
    files += sorted(p.relative_to(root).as_posix() for p in (root / "docs").rglob("*.md"))
    return files


def tail(text: str, n: int = TAIL_LINES) -> str:
    """The last n lines of text."""
    return "\n".join(text.rstrip("\n").split("\n")[-n:])


def group_alive(pgid: int) -> bool:
    """Whether a process group still has a process."""
    try:
        os.killpg(pgid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def kill_groups(pgids: list[int], grace: float = 5.0) -> None:
    """SIGTERM to each group, then SIGKILL to those still there after grace seconds."""
    alive = [g for g in pgids if group_alive(g)]
    for g in alive:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(g, signal.SIGTERM)
    deadline = time.monotonic() + grace
    while alive and time.monotonic() < deadline:
        time.sleep(0.1)
        alive = [g for g in alive if group_alive(g)]
    for g in alive:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(g, signal.SIGKILL)


class FileRun:
    """Runs the blocks of one Markdown file in its scratch directory."""

    def __init__(self, root: Path, venv: Path, mirror: Path, work: Path, timeout: float) -> None:
        self.root, self.venv, self.work, self.timeout = root, venv, work, timeout
        work.mkdir(parents=True)
        self.groups: list[int] = []
        self.python: subprocess.Popen[bytes] | None = None
        self.answers: int = -1
        self.python_log = work / "python.log"
        self.env = dict(os.environ)
        path = [str(root / "bin"), str(venv / "bin"), self.env.get("PATH", "")]
        self.env.update(
            PATH=os.pathsep.join(path), VIRTUAL_ENV=str(venv), JGYM_QUICK="1", PYTHONUNBUFFERED="1"
        )
        self.env.pop("PYTHONHOME", None)
        # A fresh mirror at the same path for every file (and run), so that
        # Go's build cache, which keys packages by directory, is reused.
        self.dir = mirror
        if mirror.exists():
            shutil.rmtree(mirror)  # unlinks the links, never follows them
        mirror.mkdir(parents=True)
        # runs/ (ignored by git) is the repository's: "cd python-client" then
        # "../runs" reaches it through the link, as "runs" does from the top.
        (root / "runs").mkdir(exist_ok=True)
        for entry in sorted(root.iterdir()):
            if entry.name not in {".git", ".venv"}:
                (self.dir / entry.name).symlink_to(entry)
        (self.dir / ".venv").symlink_to(venv)

    def run(self, block: Block, number: int) -> Failure | None:
        """Runs one block; returns its failure, or None when it passed."""
        if block.tag in PYTHON_TAGS:
            return self.run_python(block)
        return self.run_shell(block, number)

    def run_shell(self, block: Block, number: int) -> Failure | None:
        """Runs a shell block as one bash -euo pipefail script."""
        code = console_commands(block.code) if block.tag == "console" else block.code
        log = self.work / f"block{number}.log"
        with log.open("wb") as out:
            proc = subprocess.Popen(
                ["bash", "-euo", "pipefail", "-c", code],
                cwd=self.dir,
                env=self.env,
                stdin=subprocess.DEVNULL,
                stdout=out,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )
            self.groups.append(proc.pid)
            try:
                status = proc.wait(self.timeout)
            except subprocess.TimeoutExpired:
                kill_groups([proc.pid], grace=1.0)
                proc.wait()
                status = None
        output = log.read_text(encoding="utf-8", errors="replace")
        if status is None:
            return Failure(self.where(block), f"timed out after {self.timeout:g} s", tail(output))
        if status != 0:
            return Failure(self.where(block), f"exit status {status}", tail(output))
        return None

    def start_python(self) -> None:
        """Starts the file's interpreter."""
        read, write = os.pipe()
        with self.python_log.open("ab") as log:
            self.python = subprocess.Popen(
                [str(self.venv / "bin" / "python"), "-c", DRIVER, str(write)],
                cwd=self.dir,
                env=self.env,
                stdin=subprocess.PIPE,
                stdout=log,
                stderr=subprocess.STDOUT,
                pass_fds=(write,),
                start_new_session=True,
            )
        os.close(write)
        self.answers = read
        self.groups.append(self.python.pid)

    def run_python(self, block: Block) -> Failure | None:
        """Runs a Python block in the file's interpreter."""
        if self.python is None:
            self.start_python()
        assert self.python is not None and self.python.stdin is not None
        if self.python.poll() is not None:
            return Failure(self.where(block), "the file's Python interpreter is gone")
        start = self.python_log.stat().st_size
        request = {"code": block.code, "offset": block.line, "file": block.file}
        try:
            self.python.stdin.write((json.dumps(request) + "\n").encode())
            self.python.stdin.flush()
        except BrokenPipeError:
            return Failure(self.where(block), "the file's Python interpreter is gone")
        answer = b""
        deadline = time.monotonic() + self.timeout
        while not answer.endswith(b"\n"):
            left = deadline - time.monotonic()
            ready = select.select([self.answers], [], [], max(left, 0))[0] if left > 0 else []
            if not ready:
                kill_groups([self.python.pid], grace=1.0)
                self.python.wait()
                return Failure(
                    self.where(block), f"timed out after {self.timeout:g} s", self.output(start)
                )
            chunk = os.read(self.answers, 65536)
            if not chunk:
                self.python.wait()
                return Failure(
                    self.where(block),
                    f"the Python interpreter exited ({self.python.returncode})",
                    self.output(start),
                )
            answer += chunk
        error = json.loads(answer)["error"]
        if error:
            return Failure(self.where(block), "Python exception", tail(self.output(start) + error))
        return None

    def output(self, start: int) -> str:
        """What the interpreter printed since start."""
        with self.python_log.open("rb") as log:
            log.seek(start)
            return tail(log.read().decode("utf-8", errors="replace"))

    def where(self, block: Block) -> str:
        """file:line of a block, and its first line."""
        return f"{block.file}:{block.line} ({block.tag}: {block.first_line.strip()[:70]})"

    def close(self) -> None:
        """Stops the interpreter and kills what the blocks left running."""
        if self.python is not None:
            if self.python.stdin is not None:
                with contextlib.suppress(BrokenPipeError):
                    self.python.stdin.close()
            with contextlib.suppress(subprocess.TimeoutExpired):
                self.python.wait(10)
            os.close(self.answers)
        kill_groups(self.groups)
        if self.python is not None and self.python.poll() is None:
            self.python.wait()


#: What makes a file run alone when the harness runs files side by side
#: (--jobs): a fixed port (the server's default 50051, the replicas'
#: 50051-50053, metrics 9090), a server started by hand, a Ray cluster,
#: a command that builds bin/jgym or installs into the venv the other
#: files use.
ALONE = re.compile(
    r"jgym serve|\b50\d\d\d\b|\b909\d\b|replicas\.sh|\bray\b|rllib"
    r"|\bmake (demo|setup|build|wheel)\b|pip install|go build",
    re.IGNORECASE,
)


#: Commands that take minutes (evaluations of many games, training): the
#: files with most of them start first when files run side by side, so that
#: the longest file (docs/recipe.md, some 15 minutes on two cores) does not
#: start halfway through and run on alone at the end.
LONG = re.compile(r"jgym eval|recipe\.py|ppo\.py|jgym tournament|\btrain")


def weight(blocks: list[Block]) -> int:
    """How many long commands a file's runnable blocks hold (LONG)."""
    return sum(len(LONG.findall(b.code)) for b in blocks if not b.listed)


def needs_machine(blocks: list[Block]) -> bool:
    """Whether a file's runnable blocks need the machine to themselves (ALONE)."""
    return any(ALONE.search(b.code) for b in blocks if not b.listed)


def mirror_dir(root: Path) -> Path:
    """The scratch directory of a repository: the same path on every run."""
    digest = hashlib.sha256(str(root).encode()).hexdigest()[:10]
    return Path(tempfile.gettempdir()) / f"jgym-docs-{digest}"


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    """The command line."""
    p = argparse.ArgumentParser(
        description="Run the sh/bash/shell/console and python blocks of the docs."
    )
    p.add_argument(
        "files",
        nargs="*",
        help="Markdown files (default: README.md, "
        "python-client/README.md, docs/**/*.md), relative to --root",
    )
    p.add_argument(
        "--root",
        type=Path,
        default=Path(__file__).resolve().parent.parent,
        help="the repository (default: this script's)",
    )
    p.add_argument(
        "--venv",
        type=Path,
        default=Path(".venv"),
        help="the Python venv whose bin/ goes on PATH (default: .venv of the root)",
    )
    p.add_argument(
        "--untested",
        default=UNTESTED,
        help=f"the list of blocks not run, relative to --root (default: {UNTESTED})",
    )
    p.add_argument("--timeout", type=float, default=600.0, help="seconds per block (default 600)")
    p.add_argument("--keep", action="store_true", help="keep the logs and the scratch directory")
    p.add_argument(
        "--jobs",
        "-j",
        type=int,
        default=1,
        help="files run side by side, each in its own scratch directory; files that "
        "use fixed ports, servers or Ray run alone afterwards (default 1)",
    )
    return p.parse_args(argv)


def main(argv: list[str] | None = None) -> int:
    """Runs the docs' blocks; returns the exit status."""
    args = parse_args(argv)
    root = args.root.resolve()
    venv = args.venv if args.venv.is_absolute() else root / args.venv
    if not (venv / "bin" / "python").exists():
        print(f"docs: no venv at {venv} (make setup, or --venv)", file=sys.stderr)
        return 2
    venv = Path(os.path.abspath(venv))
    files = args.files or default_files(root)
    listings, failures = read_listings(root / args.untested)
    started = time.monotonic()
    scratch = mirror_dir(root)
    scratch.mkdir(parents=True, exist_ok=True)
    lock = (scratch / "lock").open("w")
    try:
        fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        print(f"docs: another docs harness runs on {root} ({scratch} is locked)", file=sys.stderr)
        return 2
    work = Path(tempfile.mkdtemp(prefix="jgym-docs-logs-"))
    ran = passed = listed = 0
    jobs = max(1, args.jobs)
    lanes: queue.Queue[int] = queue.Queue()
    for k in range(jobs):
        lanes.put(k)
    printing = threading.Lock()

    def run_file(n: int, rel: str, blocks: list[Block]) -> tuple[int, int, int, list[Failure]]:
        """Runs one file's blocks in a free lane; prints its lines when it ends (several lanes)."""
        lane = lanes.get()
        out: list[str] = []
        ran = passed = listed = 0
        failures: list[Failure] = []

        def say(line: str) -> None:
            if jobs == 1:
                print(line, flush=True)
            else:
                out.append(line)

        say(f"docs: {rel}: {len(blocks)} blocks")
        mirror = scratch / ("root" if lane == 0 else f"root{lane}")
        runner = FileRun(root, venv, mirror, work / f"file{n}", args.timeout)
        try:
            for k, block in enumerate(blocks):
                if block.listed:
                    listed += 1
                    say(f"  {block.line:5d} {block.tag:7s} not run: {block.listed}")
                    continue
                t0 = time.monotonic()
                failure = runner.run(block, k)
                ran += 1
                took = time.monotonic() - t0
                if failure is None:
                    passed += 1
                    say(f"  {block.line:5d} {block.tag:7s} ok    {took:6.1f} s")
                else:
                    failures.append(failure)
                    say(f"  {block.line:5d} {block.tag:7s} FAIL  {took:6.1f} s  {failure.why}")
        finally:
            runner.close()
            lanes.put(lane)
            if out:
                with printing:
                    print("\n".join(out), flush=True)
        return ran, passed, listed, failures

    try:
        shared: list[tuple[int, str, list[Block]]] = []
        alone: list[tuple[int, str, list[Block]]] = []
        for n, rel in enumerate(files):
            blocks = find_blocks(root, rel)
            for listing in listings:
                if listing.file == rel:
                    listing.matches = [b for b in blocks if listing.needle in b.first_line]
                    if len(listing.matches) == 1:
                        listing.matches[0].listed = listing.reason
            if blocks:
                (alone if jobs > 1 and needs_machine(blocks) else shared).append((n, rel, blocks))
        if jobs > 1:
            print(
                f"docs: {len(shared)} files in {jobs} lanes, then {len(alone)} alone "
                f"(fixed ports, servers, Ray: {', '.join(rel for _, rel, _ in alone)})",
                flush=True,
            )
        shared.sort(key=lambda f: -weight(f[2]))  # stable: the heaviest first
        with concurrent.futures.ThreadPoolExecutor(jobs) as pool:
            results = list(pool.map(lambda f: run_file(*f), shared))
        results += [run_file(*f) for f in alone]
        for r, p, li, fs in results:
            ran, passed, listed = ran + r, passed + p, listed + li
            failures.extend(fs)
    finally:
        if args.keep:
            print(f"docs: logs kept in {work}, the last file's scratch directory in {scratch}")
        else:
            shutil.rmtree(work, ignore_errors=True)
            shutil.rmtree(scratch, ignore_errors=True)
        lock.close()
    checked = set(files)
    for listing in listings:
        if listing.file not in checked and args.files:
            continue
        where = f"{args.untested}:{listing.line}"
        if not (root / listing.file).is_file():
            failures.append(Failure(where, f"stale: no file {listing.file}"))
        elif not listing.matches:
            failures.append(
                Failure(
                    where,
                    f"stale: no block of {listing.file} starts with a "
                    f"line holding `{listing.needle}`",
                )
            )
        elif len(listing.matches) > 1:
            lines = ", ".join(str(b.line) for b in listing.matches)
            failures.append(
                Failure(
                    where,
                    f"ambiguous: `{listing.needle}` matches the blocks "
                    f"of {listing.file} at lines {lines}",
                )
            )
    for f in failures:
        print(f"\nFAIL {f.where}: {f.why}", file=sys.stderr)
        if f.tail:
            print("  | " + f.tail.replace("\n", "\n  | "), file=sys.stderr)
    print(
        f"\ndocs: {ran} blocks run, {passed} passed, {listed} listed as not runnable "
        f"({args.untested}) in {time.monotonic() - started:.0f} s"
    )
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
