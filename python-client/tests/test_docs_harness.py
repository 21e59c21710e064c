"""scripts/docs_harness.py on a tiny repository: a failing block fails, a listed one is skipped."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

HARNESS = Path(__file__).resolve().parents[2] / "scripts" / "docs_harness.py"

DOC = """# A page

Text, then a block that passes and writes at the top level:

```sh
echo hello > out.txt
test "$JGYM_QUICK" = 1
```

```python
x = 41
```

```python
assert x + 1 == 42
```

```console
$ printf 'a\\nb\\n' \\
>   | wc -l
2
```

A block that is not run (no tag), and one in Go:

```
false
```

```go
panic("not run")
```

The broken block:

```bash
echo before
false
echo never
```
"""

BROKEN_LINE = DOC.split("\n").index("```bash") + 1


def run(root: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [
            sys.executable,
            str(HARNESS),
            "--root",
            str(root),
            "--venv",
            sys.prefix,
            "--timeout",
            "60",
        ],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )


def make_repo(tmp_path: Path, listing: str = "") -> Path:
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "page.md").write_text(DOC)
    if listing:
        (tmp_path / "docs" / "untested-blocks.txt").write_text(listing)
    return tmp_path


def test_broken_block_fails_with_its_line(tmp_path: Path) -> None:
    r = run(make_repo(tmp_path))
    assert r.returncode == 1, r.stdout + r.stderr
    assert f"docs/page.md:{BROKEN_LINE} (bash: echo before)" in r.stderr
    assert "exit status 1" in r.stderr
    assert "before" in r.stderr  # the block's last output lines
    assert "docs: 5 blocks run, 4 passed, 0 listed as not runnable" in r.stdout
    assert not (tmp_path / "out.txt").exists()  # written in the scratch directory


def test_listed_block_is_not_run(tmp_path: Path) -> None:
    listing = "# comment\ndocs/page.md  `echo before`  broken on purpose\n"
    r = run(make_repo(tmp_path, listing))
    assert r.returncode == 0, r.stdout + r.stderr
    assert "not run: broken on purpose" in r.stdout
    assert "docs: 4 blocks run, 4 passed, 1 listed as not runnable" in r.stdout


def test_stale_listing_fails(tmp_path: Path) -> None:
    listing = (
        "docs/page.md  `echo before`  broken on purpose\n"
        "docs/page.md  `echo gone`  a block that was removed\n"
    )
    r = run(make_repo(tmp_path, listing))
    assert r.returncode == 1, r.stdout + r.stderr
    assert "untested-blocks.txt:2: stale" in r.stderr
    assert "docs: 4 blocks run, 4 passed, 1 listed as not runnable" in r.stdout


def test_python_failure_names_the_doc_line(tmp_path: Path) -> None:
    (tmp_path / "README.md").write_text("```python\n\nraise ValueError('boom')\n```\n")
    r = run(tmp_path)
    assert r.returncode == 1, r.stdout + r.stderr
    assert 'File "README.md", line 3' in r.stderr
    assert "ValueError: boom" in r.stderr


def test_background_server_is_killed(tmp_path: Path) -> None:
    pidfile = tmp_path / "sleep.pid"
    (tmp_path / "README.md").write_text(f"```sh\nsleep 300 &\necho $! > {pidfile}\n```\n")
    r = run(tmp_path)
    assert r.returncode == 0, r.stdout + r.stderr
    pid = int(pidfile.read_text())
    assert not Path(f"/proc/{pid}").exists() or "zombie" in Path(f"/proc/{pid}/status").read_text()


def test_jobs_run_files_side_by_side_and_alone(tmp_path: Path) -> None:
    # Two files that each wait for the other to have started (each writes
    # its mark, then waits for the other's): they pass only side by side.
    # A third names the server's fixed port, so it runs alone, after them,
    # and sees both marks. Each file has its own scratch directory, so the
    # marks go to a directory outside it.
    marks = tmp_path / "marks"
    marks.mkdir()
    (tmp_path / "docs").mkdir()
    for me, other in (("a", "b"), ("b", "a")):
        (tmp_path / "docs" / f"{me}.md").write_text(
            "```sh\n"
            f"touch {marks}/{me}; pwd > {marks}/{me}.dir\n"
            f"for i in $(seq 100); do [ -e {marks}/{other} ] && exit 0; sleep 0.1; done\n"
            "exit 1\n```\n"
        )
    (tmp_path / "docs" / "c.md").write_text(
        f"```sh\n# jgym serve listens on 127.0.0.1:50051\ntest -e {marks}/a -a -e {marks}/b\n```\n"
    )
    (tmp_path / "docs" / "d.md").write_text("```sh\nfalse\n```\n")
    r = subprocess.run(
        [
            sys.executable,
            str(HARNESS),
            "--root",
            str(tmp_path),
            "--venv",
            sys.prefix,
            "--jobs",
            "2",
        ],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert r.returncode == 1, r.stdout + r.stderr  # d.md fails, in a lane
    assert "then 1 alone (fixed ports, servers, Ray: docs/c.md)" in r.stdout
    assert "docs/d.md:1 (sh: false)" in r.stderr
    assert "docs: 4 blocks run, 3 passed" in r.stdout
    dirs = {(marks / f"{m}.dir").read_text() for m in "ab"}
    assert len(dirs) == 2  # two scratch directories
