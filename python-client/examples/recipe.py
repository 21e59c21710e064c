"""One command per game: behaviour cloning of the strong bot, then PPO with a self-play league.

    python examples/recipe.py --game crematoria --steps 2000000 --out ../runs/recipe_crematoria

runs, in ``--out`` (each stage is skipped when its output is there, so the
same command resumes an interrupted recipe, and a larger ``--steps``
continues the PPO run from its checkpoint):

1. **games**: ``--bc-games`` games of the game's strong bot (Riddick,
   Khan, Pasteur, Balin) against itself and Demos (two strong bots and two
   Demos, the seats turning with the seed), played by ``jgym match`` into
   ``traces/`` (gzipped ``.res``);
2. **dataset**: ``jgym dataset --expert STRONG --players STRONG`` turns
   the strong bot's seats into ``data/``, labelled with the commands it
   gave (docs/learning-from-traces.md);
3. **bc**: ``examples/bc.py`` clones the strong bot into jgym.torch's
   network (``bc.pt``, exported as ``bc.onnx``);
4. **dagger**: ``--dagger`` rounds of DAgger: the latest cloned policy
   plays ``--dagger-games`` games against the strong bot and two Demos
   (``jgym eval --trace-dir``), the strong bot labels the states it
   reached (``jgym dataset --expert STRONG``), and bc.py continues on all
   the data so far (``dagger<k>.pt``, ``dagger<k>.onnx``): the clone
   learns what the strong bot does in the states the clone itself gets into;
5. **ppo**: ``examples/ppo.py --init`` (the last clone) trains for ``--steps``
   environment steps (rounds of the learner's seat) against a league
   (``--opponents league:STRONG,SPARRING,Demo``: those bots, the sparring
   partner ``--sparring`` (the game's DummyClone where it has one) and the clone, plus a
   snapshot of itself every ``--snapshot-every`` updates, drawn by PFSP,
   half the tables seating the strong bot and two Demos, rated by ``jgym
   tournament`` at the end) into ``ppo/`` (checkpoint, TensorBoard logs,
   learning curve, ``model.onnx``); an interrupted run resumes from its
   last checkpoint;
6. **finetune** (with ``--finetune-steps``): ``--finetune-steps`` more PPO
   steps from the league's policy against the evaluation's first table
   only (the strong bot and two Demos), with a small learning rate and
   ``--finetune-flags`` (e.g. ``--credit units:gem=45``), into ``finetune/``;
   the evaluation and the export then take its policy;
7. **eval**: ``jgym eval`` of the PPO policy and of the cloned ones, on the
   same ``--eval-games`` unseen seeds (from ``--eval-seed0``) with rotating seats, against the
   strong bot and two Demos, three strong bots, three Demos and three
   sparring partners (``eval.json``, and a table on standard output);
8. **select**: which policy the recipe ships. ``--ship last`` (the
   default): the last one trained (finetune's, else PPO's; the last clone
   with ``--steps 0``). ``--ship best``: every clone (bc and each DAgger
   round's), PPO's and finetune's policies each play ``--select-games``
   games at the selection table (``--select-table``; default: three
   sparring partners where the game has one, else the strong bot and two
   Demos) on seeds of their own (from ``--select-seed0``, apart from the
   evaluation's, so that the reported evaluation is not the one that
   chose), and the one with the most wins ships (ties: the higher mean
   score, then the later stage). PPO from a clone can play worse than the
   clone (it did in Dominator and Pandemic): with ``best`` the command's
   output is the best of them by a measurement it shows. ``--steps 0``
   skips PPO (and finetune);
9. **export**: ``jgym export-cpp --check`` writes ``AI<Name>.cc`` for the
   course kit from the shipped policy and checks that it plays as the
   ``policy:`` bot; ``shipped.onnx`` is a copy of that policy.

The opponents' order: when ``--ppo-flags`` hold ``--opponent-order X``
(``score``: the opponents relabelled by score, the leader first, as
Crematoria's recipe trains), every stage that makes what PPO starts from
sees the opponents the same way: the datasets of BC and of each DAgger
round are written with ``jgym dataset --opponent-order X``, bc.py is given
``--opponent-order X`` (it refuses a dataset in another order), and the
clones' checkpoints and ONNX files record the order, so the clones are
evaluated, play their DAgger games and start PPO in the view PPO trains
in. A directory whose datasets were written in another order is refused
(give another ``--out``).

The observation: ``--tensors`` names the tensors every stage's network
takes (e.g. Pandemic's ``board,units,globals,targets,expert``, with the
opt-in ``expert`` tensor of Pasteur's own orders): the datasets are written
with ``jgym dataset --tensors``, bc.py reads what they hold, PPO and
finetune are given ``examples/ppo.py --tensors``, and every ONNX file
records them (metadata ``tensors``), so the evaluations, the selection and
the exported C++ player encode those. A directory made with other tensors
is refused (give another ``--out``).

``summary.json`` holds every stage's figures, wall times and CPU times. ``JGYM_QUICK=1``
(the docs harness, the tests) shrinks every stage to a smoke test, written
to ``<out>_quick`` so that it never mixes with a real recipe's outputs.
"""

from __future__ import annotations

import gzip
import hashlib
import json
import os
import resource
import shutil
import subprocess
import sys
import time
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from jgym import STRONG_BOTS
from jgym.cli import parse
from jgym.server import find_binary

HERE = Path(__file__).resolve().parent

#: Each game's strong scripted bot (the one the recipe clones and must beat),
#: from the games' Go definitions.
STRONG: dict[str, str] = dict(STRONG_BOTS)

#: The bot a game's sparring partner defaults to where the game has it: the
#: clone of the course's Dummy (docs/bots.md).
DUMMY_CLONE = "DummyClone"

#: Seeds of the cloned games (training games use 1,000,000 on, evaluations 1 on).
BC_SEED0 = 500_000

#: Flags of the finetune stage beside --finetune-flags: small steps from a trained policy.
FINETUNE = {"learning_rate": "1e-4", "ent_coef": 0.003}


@dataclass
class Args:
    """Command-line arguments (each field is a ``--flag``)."""

    game: str = "Crematoria-v0"
    """the game: Crematoria, Dominator, Pandemic or Moria (any case, '-v0' optional)"""
    out: str = ""
    """the recipe's directory (default: runs/recipe_<game>)"""
    steps: int = 2_000_000
    """PPO's budget in environment steps (rounds of the learner's seat); a larger value
    given to a finished recipe continues its PPO run"""
    bc_games: int = 200
    """games of the strong bot cloned (two of its seats per game)"""
    bc_epochs: int = 4
    """behaviour-cloning passes over the games"""
    dagger: int = 2
    """DAgger rounds after behaviour cloning (0: none)"""
    dagger_games: int = 200
    """games the clone plays in each DAgger round (its seat and the strong bot's are labelled)"""
    dagger_epochs: int = 2
    """behaviour-cloning passes over all the data in each DAgger round"""
    snapshot_every: int = 50
    """PPO updates between snapshots of the learner joining the league (and evaluations)"""
    eval_games: int = 200
    """games of each final evaluation (a multiple of 4; seeds from --eval-seed0, seats rotating)"""
    eval_seed0: int = 1
    """seed of the final evaluations' first game (keep their seeds apart from the training's:
    games 500,000.., DAgger 600,000.., PPO 11,000,000..)"""
    eval_tables: str = ""
    """the evaluation's tables, ';'-separated, each three comma-separated seats
    (default: 'STRONG,Demo,Demo;STRONG,STRONG,STRONG;Demo,Demo,Demo')"""
    eval_clones: bool = True
    """also evaluate the clones (bc and the last DAgger one) on the same games"""
    check_seeds: str = "1,2,3,4"
    """seeds of the export's check (the C++ player against three Demos)"""
    threads: int = 1
    """PyTorch threads of BC and PPO (2 is faster on an idle 2-core machine)"""
    ppo_flags: str = ""
    """more examples/ppo.py flags, e.g. '--num-envs 64' (its --net, --credit and
    --opponent-order are also given to bc.py, and --opponent-order to jgym dataset)"""
    seed: int = 1
    """seed of BC and PPO"""
    finetune_steps: int = 0
    """steps of a last PPO stage against the strong bot and two Demos only, from the league's
    policy (0: none); a larger value given to a finished recipe continues it"""
    sparring: str = "auto"
    """a bot the league seats beside the strong bot and the clone, and the evaluation plays
    at a table of three ('auto': DummyClone where the game has it, else none; '': none)"""
    finetune_flags: str = ""
    """more examples/ppo.py flags of the finetune stage, e.g. '--credit units:gem=45' (the
    network is PPO's)"""
    ship: str = "last"
    """the policy exported: 'last' (finetune's, else PPO's; the last clone with --steps 0) or
    'best' (of every clone, PPO's and finetune's, the most wins at --select-table)"""
    select_table: str = ""
    """the table --ship best measures at, three comma-separated seats (default: three
    sparring partners, else 'STRONG,Demo,Demo')"""
    select_games: int = 80
    """games per candidate of --ship best (a multiple of 4, seats rotating)"""
    select_seed0: int = 900_001
    """seed of --ship best's first game (apart from the evaluation's and the training's)"""
    tensors: str = ""
    """the observation tensors of every stage's network, comma-separated (jgym dataset
    --tensors, ppo.py --tensors; '' the game's observation), e.g. Pandemic's
    'board,units,globals,targets,expert' (the opt-in expert tensor)"""


def game_id(name: str) -> str:
    """The environment id of a game named in any case, with or without ``-v0``."""
    for g in STRONG:
        if name.lower() in (g.lower(), g.split("-v")[0].lower()):
            return g
    raise SystemExit(f"--game {name}: not one of {', '.join(STRONG)}")


#: The examples/ppo.py flags that bc.py takes too (it must build the same network, seeing
#: the opponents in the same order and giving its commands in the same order).
NETWORK_FLAGS = ("--net", "--credit", "--opponent-order", "--command-order")


def flags(**kw: object) -> list[str]:
    """``--name value`` pairs for a command line (``buffer_shards`` gives ``--buffer-shards``)."""
    return [x for k, v in kw.items() for x in (f"--{k.replace('_', '-')}", str(v))]


def network_flags(flags: list[str]) -> list[str]:
    """The network flags among examples/ppo.py flags (bc.py must build the same network)."""
    out: list[str] = []
    for i, f in enumerate(flags):
        name, eq, value = f.partition("=")
        if name in NETWORK_FLAGS and eq:
            out += [name, value]
        elif f in NETWORK_FLAGS and i + 1 < len(flags):
            out += [f, flags[i + 1]]
    return out


def opponent_order(flags: list[str]) -> str:
    """The ``--opponent-order`` among examples/ppo.py flags (the last one), else ``seat``."""
    net = network_flags(flags)
    orders = [net[i + 1] for i in range(0, len(net), 2) if net[i] == "--opponent-order"]
    return orders[-1] if orders else "seat"


class Recipe:
    """The stages of the recipe in one directory (see the module docs)."""

    def __init__(self, args: Args) -> None:
        self.args = args
        self.game = game_id(args.game)
        self.name = self.game.split("-v")[0].lower()
        self.strong = STRONG[self.game]
        self.out = Path(args.out or f"runs/recipe_{self.name}").resolve()
        self.quick = bool(os.environ.get("JGYM_QUICK"))
        if self.quick:  # a smoke test never writes into a real recipe's directory
            self.out = self.out.with_name(self.out.name + "_quick")
            print(f"JGYM_QUICK is set: a smoke test, in {self.out}")
        self.out.mkdir(parents=True, exist_ok=True)
        self.jgym = str(find_binary())
        self.order = opponent_order(args.ppo_flags.split())
        if args.ship not in ("last", "best"):
            raise SystemExit(f"--ship {args.ship[:40]}: 'last' or 'best'")
        if args.steps < 0 or args.finetune_steps < 0:
            raise SystemExit("--steps and --finetune-steps: 0 or more")
        self.sparring = self.find_sparring(args.sparring)
        self.tensors = ",".join(t.strip() for t in args.tensors.split(",") if t.strip())
        path = self.out / "summary.json"
        self.summary: dict[str, Any] = json.loads(path.read_text()) if path.is_file() else {}
        # A smoke test's outputs (JGYM_QUICK) must not pass for a real
        # recipe's, nor the other way round: the stages trust what they find.
        if self.summary.get("quick", self.quick) != self.quick:
            made = "with" if self.summary["quick"] else "without"
            raise SystemExit(f"recipe: {self.out} was made {made} JGYM_QUICK; give another --out")
        # Every dataset, clone and checkpoint takes the tensors the directory
        # was made with (one made before --tensors: the whole observation).
        made = self.summary.get("tensors", "" if self.summary else self.tensors)
        if made != self.tensors:
            raise SystemExit(
                f"recipe: {self.out} was made with --tensors '{made}', not '{self.tensors}'; "
                "give another --out"
            )
        self.summary["args"] = asdict(args)
        self.summary["quick"] = self.quick
        self.summary["tensors"] = self.tensors
        self.save()

    def find_sparring(self, want: str) -> str:
        """The sparring bot: ``want``, or with 'auto' DummyClone where ``jgym list`` shows it."""
        if want != "auto":
            return want
        p = subprocess.run(
            [self.jgym, "list", "--game", self.name], text=True, capture_output=True, check=False
        )
        return DUMMY_CLONE if DUMMY_CLONE in p.stdout.split() else ""

    def save(self) -> None:
        """Writes summary.json."""
        (self.out / "summary.json").write_text(json.dumps(self.summary, indent=1))

    def run(self, cmd: list[str], **kw: Any) -> subprocess.CompletedProcess[str]:
        """Runs a command, its output on ours; fails the recipe if it fails."""
        print("$", " ".join(cmd), flush=True)
        p = subprocess.run(cmd, text=True, check=False, **kw)
        if p.returncode != 0:
            raise SystemExit(f"recipe: {Path(cmd[0]).name} failed with exit status {p.returncode}")
        return p

    def stage(self, name: str, fn: Any) -> None:
        """Runs a stage, timing it into the summary: wall seconds and CPU seconds.

        The CPU seconds are those of the stage's commands and their own
        children (the jgym servers, the bots they seat), user and system
        time summed over every core: on a machine shared with other work
        they say what the recipe itself used, where the wall time also
        counts the waiting. Both add up over the invocations of a resumed
        recipe (a stage found done adds nothing).
        """
        print(f"\n== {name} ==", flush=True)
        t, cpu = time.time(), children_cpu()
        fn()
        took, used = time.time() - t, children_cpu() - cpu
        # A resumed recipe adds to what the earlier invocations spent.
        for key, x in (("seconds", took), ("cpu_seconds", used)):
            spent = self.summary.setdefault(key, {})
            spent[name] = round(spent.get(name, 0.0) + x, 1)
        self.save()
        print(f"== {name}: {took:.0f} s ({used:.0f} s of CPU)", flush=True)

    def write_dataset(self, data: Path, cmd: list[str]) -> None:
        """``jgym dataset`` (``cmd``: its flags and traces) into ``data``, in the recipe's order.

        A dataset already there is kept if it sees the opponents in that
        order; one written in another order stops the recipe (its clones
        were trained in that order too).
        """
        manifest = data / "manifest.json"
        if manifest.is_file():
            have = json.loads(manifest.read_text()).get("opponent_order") or "seat"
            if have != self.order:
                raise SystemExit(
                    f"recipe: {data} sees the opponents by {have}, --ppo-flags ask for "
                    f"--opponent-order {self.order}: give another --out"
                )
            print(f"  {data} is there")
            return
        shutil.rmtree(data, ignore_errors=True)
        cmd = [self.jgym, "dataset", "--game", self.name, "--opponent-order", self.order, *cmd]
        cmd += flags(tensors=self.tensors) if self.tensors else []
        self.run(cmd, stdout=subprocess.DEVNULL)

    # --- stages -----------------------------------------------------------

    def games(self) -> None:
        """Plays the strong bot's games (skips the traces already there)."""
        d = self.out / "traces"
        d.mkdir(exist_ok=True)
        n = 4 if self.quick else self.args.bc_games
        s, demo = self.strong, "Demo"
        lineups = [(s, s, demo, demo), (demo, s, s, demo), (demo, demo, s, s), (s, demo, demo, s)]
        played = 0
        for k in range(n):
            seed = BC_SEED0 + k
            final = d / f"g{seed}.res.gz"
            if final.is_file():
                continue
            raw = d / f"g{seed}.res"
            cmd = [self.jgym, "match", "--game", self.name, *lineups[k % 4]]
            subprocess.run(
                [*cmd, "-s", str(seed), "-o", str(raw)],
                check=True,
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
            )
            with raw.open("rb") as f, gzip.open(final, "wb") as g:
                shutil.copyfileobj(f, g)
            raw.unlink()
            played += 1
            if played % 50 == 0:
                print(f"  {k + 1}/{n} games", flush=True)
        self.summary["games"] = {
            "traces": n,
            "played_now": played,
            "lineups": [",".join(x) for x in lineups],
        }

    def dataset(self) -> None:
        """``jgym dataset --players STRONG`` (a dataset left incomplete is rebuilt)."""
        d = self.out / "data"
        cmd = ["--expert", self.strong, "--players", self.strong]
        self.write_dataset(d, [*cmd, "-o", str(d), str(self.out / "traces")])
        m = json.loads((d / "manifest.json").read_text())
        self.summary["dataset"] = {"samples": m.get("samples"), "labels": m.get("labels")}

    def bc(self) -> None:
        """bc.py into bc.pt, exported as bc.onnx."""
        self.clone("bc", self.out / "data", self.args.bc_epochs, None)

    def clone(self, name: str, data: Path, epochs: int, init: Path | None) -> None:
        """bc.py on ``data`` into NAME.pt (from ``init``), exported as NAME.onnx (both kept)."""
        pt = self.out / f"{name}.pt"
        if not pt.is_file():
            net = network_flags(self.args.ppo_flags.split())
            tmp = self.out / f"{name}.pt.tmp"
            a = self.args
            cmd = [sys.executable, str(HERE / "bc.py")]
            cmd += flags(game=self.game, data=data, epochs=epochs, seed=a.seed, threads=a.threads)
            cmd += flags(buffer_shards=4, out=tmp)
            cmd += flags(init=init) if init else []
            self.run(cmd + net)
            tmp.replace(pt)
        onnx = self.out / f"{name}.onnx"
        if not onnx.is_file() or onnx.stat().st_mtime < pt.stat().st_mtime:
            code = "import sys, jgym.torch as t; "
            code += "t.export_onnx(t.load_agent(sys.argv[1]), sys.argv[2])"
            self.run([sys.executable, "-c", code, str(pt), str(onnx)])

    @property
    def clones(self) -> list[str]:
        """The cloned policies in order: bc, dagger1, ..."""
        return ["bc"] + [f"dagger{k}" for k in range(1, self.args.dagger + 1)]

    def dagger(self) -> None:
        """DAgger rounds: the clone plays, the strong bot labels, bc.py continues on everything."""
        n = 4 if self.quick else self.args.dagger_games
        s = self.strong
        for k in range(1, self.args.dagger + 1):
            prev, name = self.clones[k - 1], self.clones[k]
            if (self.out / f"{name}.onnx").is_file():
                print(f"  {name}.onnx is there")
                continue
            d = self.out / name
            traces = d / "traces"
            if not (d / "played").is_file():
                shutil.rmtree(traces, ignore_errors=True)
                traces.mkdir(parents=True)
                model = self.out / f"{prev}.onnx"
                cmd = [self.jgym, "eval", "--game", self.name, f"policy:{model}", "-n", str(n)]
                cmd += flags(opponents=f"{s},Demo,Demo", seed0=BC_SEED0 + 100_000 * k)
                self.run([*cmd, *flags(trace_dir=traces)], stdout=subprocess.DEVNULL)
                for f in traces.glob("*.res"):
                    with f.open("rb") as src, gzip.open(f.with_suffix(".res.gz"), "wb") as dst:
                        shutil.copyfileobj(src, dst)
                    f.unlink()
                (d / "played").write_text("")
            data = d / "data"
            # Every round so far: the strong bot's games and each clone's.
            dirs = [self.out / "traces"] + [self.out / c / "traces" for c in self.clones[1 : k + 1]]
            players = ",".join([s, *self.clones[:k]])
            cmd = ["--expert", s, "--players", players, "-o", str(data), *map(str, dirs)]
            self.write_dataset(data, cmd)
            epochs = 1 if self.quick else self.args.dagger_epochs
            self.clone(name, data, epochs, self.out / f"{prev}.pt")
        self.summary["dagger"] = {"rounds": self.args.dagger, "games_per_round": n}

    @property
    def imitation(self) -> str:
        """The last cloned policy (PPO starts from it)."""
        return self.clones[-1]

    @property
    def tensor_flags(self) -> list[str]:
        """examples/ppo.py's ``--tensors`` (none without --tensors: the game's observation)."""
        return flags(tensors=self.tensors) if self.tensors else []

    def ppo(self) -> None:
        """examples/ppo.py from the last clone with the league; ppo/ resumes from its checkpoint."""
        a = self.args
        if a.steps == 0:
            print("  --steps 0: no PPO (the recipe ships the last clone)")
            return
        s = self.strong
        cmd = [sys.executable, str(HERE / "ppo.py")]
        # from a clone (its value head trains alone first): small steps, little entropy
        cmd += flags(game=self.game, init=self.out / f"{self.imitation}.pt")
        league = ",".join(b for b in (s, self.sparring, "Demo") if b)
        cmd += flags(learning_rate="3e-4", ent_coef=0.003, opponents=f"league:{league}")
        # the league seats the evaluation's table (the strong bot and two
        # Demos), which hard PFSP alone hardly ever draws, in half the lineups
        cmd += flags(eval_opponents=f"{s},Demo,Demo", eval_every=a.snapshot_every)
        cmd += flags(total_timesteps=a.steps, threads=a.threads, seed=a.seed)
        cmd += flags(run_dir=self.out / "ppo") + self.tensor_flags + a.ppo_flags.split()
        if self.quick:
            cmd += ["--eval-every", "1"]
        self.run(cmd)
        hist = json.loads((self.out / "ppo" / "history.json").read_text())
        self.summary["ppo"] = hist.get("summary", {})

    def finetune(self) -> None:
        """examples/ppo.py from ppo/checkpoint.pt against STRONG,Demo,Demo only (finetune/)."""
        a = self.args
        if a.finetune_steps <= 0 or a.steps == 0:
            print("  no --finetune-steps (or --steps 0): skipped")
            return
        cmd = [sys.executable, str(HERE / "ppo.py")]
        cmd += flags(game=self.game, init=self.out / "ppo" / "checkpoint.pt", **FINETUNE)
        cmd += flags(opponents=f"{self.strong},Demo,Demo", eval_every=0, eval_games=0)
        cmd += flags(total_timesteps=a.finetune_steps, threads=a.threads, seed=a.seed)
        cmd += flags(run_dir=self.out / "finetune") + self.tensor_flags
        cmd += [f for f in a.ppo_flags.split()] + a.finetune_flags.split()
        self.run(cmd)
        hist = json.loads((self.out / "finetune" / "history.json").read_text())
        self.summary["finetune"] = hist.get("summary", {})

    @property
    def policies(self) -> list[tuple[str, Path]]:
        """The trained policies: PPO's, then finetune's if it runs (none with --steps 0)."""
        if self.args.steps == 0:
            return []
        out = [("ppo", self.out / "ppo" / "model.onnx")]
        if self.args.finetune_steps > 0:
            out.append(("finetune", self.out / "finetune" / "model.onnx"))
        return out

    def evaluate(self) -> None:
        """``jgym eval`` of the PPO policy (and the clones) against each table.

        eval.json is written after each table; a table already measured for
        the same model (same SHA-256) and number of games is kept, so an
        interrupted evaluation resumes.
        """
        n = 4 if self.quick else self.args.eval_games
        s = self.strong
        spec = self.args.eval_tables or f"{s},Demo,Demo;{s},{s},{s};Demo,Demo,Demo"
        if not self.args.eval_tables and self.sparring:
            d = self.sparring
            spec += f";{d},{d},{d}"
        tables = [t.strip() for t in spec.split(";") if t.strip()]
        path = self.out / "eval.json"
        old: dict[str, dict[str, Any]] = json.loads(path.read_text()) if path.is_file() else {}
        rows: dict[str, dict[str, Any]] = {}
        # the trained policies, else (--steps 0) the clone that ships
        who_model = dict(self.policies) or {self.imitation: self.out / f"{self.imitation}.onnx"}
        if self.args.eval_clones:
            for c in ("bc", self.imitation):
                who_model.setdefault(c, self.out / f"{c}.onnx")
        for who, model in who_model.items():
            stamp = hashlib.sha256(model.read_bytes()).hexdigest()
            for t in tables:
                key = f"{who} vs {t}"
                prev = old.get(key)
                seed0 = self.args.eval_seed0
                if (
                    prev
                    and prev.get("model_sha256") == stamp
                    and prev.get("games") == n
                    and prev.get("seed0", 1) == seed0
                ):
                    rows[key] = prev
                    continue
                r = self.play(model, t, n, seed0)
                r["model_sha256"] = stamp
                r["seed0"] = seed0
                rows[key] = r
                print(f"  {key:<36} {summarize(r)}", flush=True)
                path.write_text(json.dumps({**old, **rows}, indent=1))
        # Tables of earlier runs stay while their model is unchanged.
        sha = {
            who: hashlib.sha256(m.read_bytes()).hexdigest()
            for who, m in self.policies + [(c, self.out / f"{c}.onnx") for c in self.clones]
            if m.is_file()
        }
        kept = {
            k: v
            for k, v in old.items()
            if k not in rows and v.get("model_sha256") == sha.get(k.split(" vs ")[0])
        }
        rows = {**kept, **rows}
        path.write_text(json.dumps(rows, indent=1))
        self.summary["eval"] = {k: summarize(v) for k, v in rows.items()}
        for k, v in self.summary["eval"].items():
            print(f"  {k:<36} {v}")

    @property
    def candidates(self) -> list[tuple[str, Path]]:
        """What the recipe may ship: every clone (bc, dagger1, ...), then the trained policies."""
        return [(c, self.out / f"{c}.onnx") for c in self.clones] + self.policies

    def play(self, model: Path, table: str, n: int, seed0: int) -> dict[str, Any]:
        """``jgym eval --json`` of ``model`` at ``table``: n games from seed0, without the games."""
        cmd = [self.jgym, "eval", "--game", self.name, f"policy:{model}", "--opponents", table]
        cmd += ["-n", str(n), "--seed0", str(seed0), "--json"]
        p = self.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
        r: dict[str, Any] = json.loads(p.stdout)
        r.pop("results", None)
        return r

    def select(self) -> None:
        """Chooses the shipped policy (--ship): the last one, or the best at the selection table.

        The choice is recorded in summary.json (``select``: the table, its
        seeds, each candidate's result and the one chosen). A candidate
        already measured (same SHA-256, games and seeds) is not played again.
        """
        a = self.args
        last = self.candidates[-1]
        if a.ship == "last":
            self.summary["select"] = {"ship": "last", "chosen": last[0]}
            print(f"  --ship last: {last[0]} ({last[1].name})")
            return
        s, d = self.strong, self.sparring
        table = a.select_table or (f"{d},{d},{d}" if d else f"{s},Demo,Demo")
        n = 4 if self.quick else a.select_games
        old = self.summary.get("select", {}).get("results", {})
        results: dict[str, dict[str, Any]] = {}
        for who, model in self.candidates:
            stamp = hashlib.sha256(model.read_bytes()).hexdigest()
            prev = old.get(who)
            same = (stamp, n, a.select_seed0, table)
            if prev and (prev["model_sha256"], prev["games"], prev["seed0"], prev["table"]) == same:
                results[who] = prev
            else:
                r = self.play(model, table, n, a.select_seed0)
                results[who] = {**r, "model_sha256": stamp, "seed0": a.select_seed0, "table": table}
            print(f"  {who:<10} vs {table:<30} {summarize(results[who])}", flush=True)
        # most wins, then the higher mean score, then the later stage
        order = {who: i for i, (who, _) in enumerate(self.candidates)}
        chosen = max(
            results,
            key=lambda w: (results[w]["wins"], results[w]["mean_score"]["value"], order[w]),
        )
        self.summary["select"] = {
            "ship": "best",
            "table": table,
            "games": n,
            "seed0": a.select_seed0,
            "results": results,
            "chosen": chosen,
        }
        print(f"  ships {chosen}")

    @property
    def shipped(self) -> Path:
        """The shipped policy's ONNX file (the select stage's choice)."""
        chosen = self.summary.get("select", {}).get("chosen")
        for who, model in self.candidates:
            if who == chosen:
                return model
        raise SystemExit("recipe: no policy selected (the select stage did not run)")

    def export(self) -> None:
        """``jgym export-cpp --check`` of the shipped policy into AI<Name>.cc; shipped.onnx."""
        name = f"{self.name[:1].upper()}{self.name[1:4]}PPO"
        cc = self.out / f"AI{name}.cc"
        seeds = "1" if self.quick else self.args.check_seeds
        model = self.shipped
        shutil.copyfile(model, self.out / "shipped.onnx")
        cmd = [self.jgym, "export-cpp", "--game", self.name, str(model)]
        self.run([*cmd, "--name", name, "-o", str(cc), "--check", "-s", seeds])
        self.summary["export"] = {
            "file": str(cc),
            "bytes": cc.stat().st_size,
            "check_seeds": seeds,
            "policy": self.summary["select"]["chosen"],
            "onnx": str(self.out / "shipped.onnx"),
        }

    def all(self) -> None:
        """Every stage in order."""
        t = time.time()
        for name, fn in (
            ("games", self.games),
            ("dataset", self.dataset),
            ("bc", self.bc),
            ("dagger", self.dagger),
            ("ppo", self.ppo),
            ("finetune", self.finetune),
            ("eval", self.evaluate),
            ("select", self.select),
            ("export", self.export),
        ):
            self.stage(name, fn)
        print(f"\nrecipe done in {time.time() - t:.0f} s: {self.out}/summary.json")


def children_cpu() -> float:
    """User and system CPU seconds of this process's finished children (and theirs)."""
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def summarize(r: dict[str, Any]) -> str:
    """One line of a ``jgym eval --json`` report: wins, win rate and its interval, mean score."""
    w = r["win_rate"]
    return (
        f"{r['wins']}/{r['games']} wins, {100 * w['value']:.1f}% "
        f"[{100 * w['lo']:.1f}, {100 * w['hi']:.1f}], mean score {r['mean_score']['value']:.1f}"
    )


def main(argv: list[str] | None = None) -> Path:
    """Runs the recipe; returns its directory."""
    args = parse(Args, argv, __doc__.splitlines()[0])
    r = Recipe(args)
    r.all()
    return r.out


if __name__ == "__main__":
    main()
