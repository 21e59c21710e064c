"""PPO for every jgym game, in CleanRL's shape: one file, one dataclass of arguments.

Trains a policy for one learner seat against bots (three ``Demo`` by
default) in any game the server hosts (``--game``), then exports it to ONNX
so that it plays without Python: in Go as the ``policy:PATH`` seat (``jgym
match --game moria policy:model.onnx Demo Demo Demo``) and, with ``jgym
export-cpp``, in C++.

    python examples/ppo.py --total-timesteps 65536 --run-dir ../runs/demo
    python examples/ppo.py --game moria --net conv:coarse=16 --total-timesteps 300000

The network, the rollouts, checkpoints and the export are ``jgym.torch``'s;
the network is built from the server's description of the game's tensors
(``jgym.spec.describe``). What a learner sees and is rewarded with is the
server's too, options of its envs:

- ``--credit units`` (the default where the game offers it): each of my
  units is its own agent (shared weights), rewarded with what its own move
  earned by the game's scoring (``unit_rewards``, weighed by
  ``--credit units:gem=45,capture=5``), with its own value and advantage;
  a slot's episode ends when its unit stops being mine. ``--credit team``:
  the seat's score change, normalized by a running deviation of the return,
  one value per seat, every unit sharing the advantage;
- ``--command-order`` (default: the first order the game offers, e.g.
  Crematoria's ``attacks_first``) and ``--opponent-order`` (``score``: the
  leader first): the env orders the commands and relabels the opponents,
  and the export records both, so the Go and C++ bots play as trained;
- ``--tensors board,units,globals``: the envs compute only those
  observation tensors (and the masks); the network takes those, and the
  export records them (metadata ``tensors``), so the Go and C++ bots
  encode only those too.

Opponents: seat sets separated by ``;`` (``self`` is the latest snapshot,
taken at each evaluation), or ``league:Riddick,Demo``: every table's
opponents are drawn from those bots and the learner's snapshots by PFSP
(``jgym.league``), half of them seating ``--eval-opponents`` as it is.

Outputs in ``--run-dir``: TensorBoard logs, ``checkpoint.pt``,
``history.json``, ``learning_curve.png``, ``model.onnx``. A run directory
that holds a checkpoint continues from it (weights, optimizer, step,
league, generators). ``--init`` starts from another run's or bc.py's
checkpoint (a cloned policy's value head first trains alone for a few
updates).
"""

from __future__ import annotations

import dataclasses
import json
import os
import random
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

# PyTorch's OpenMP threads spin-wait after each parallel region, long enough
# to keep a core the server needs: spin briefly, then sleep (read when
# libgomp loads, so before torch; a value in the environment wins).
os.environ.setdefault("GOMP_SPINCOUNT", "5000")

import numpy as np
import torch
import torch.nn.functional as F  # noqa: N812
from torch import nn
from torch.utils.tensorboard import SummaryWriter

import jgym
from jgym.cli import parse
from jgym.league import League
from jgym.spec import describe
from jgym.torch import (
    BoardNet,
    History,
    Lanes,
    Phases,
    RewardNorm,
    build_agent,
    export_onnx,
    game_spec,
    greedy,
    keep_freed_memory,
    load_checkpoint,
    rng_state,
    sample,
    save_checkpoint,
    set_rng_state,
    to_torch,
)

#: Updates that train only the value head of a cloned policy (``--init`` of bc.py's).
VALUE_WARMUP = 8


@dataclass
class Args:
    """Command-line arguments (each field is a ``--flag``)."""

    game: str = "Crematoria-v0"
    """the game (any case, '-v0' optional): Crematoria, Dominator, Pandemic, Moria"""
    seed: int = 1
    """seed of PyTorch and of the training games (their seeds start at 1,000,000)"""
    device: str = "cpu"
    """PyTorch's device: cpu, cuda, cuda:1, mps..."""
    threads: int = 1
    """PyTorch CPU threads (1 leaves a core to the jgym server)"""
    total_timesteps: int = 2_000_000
    """environment steps (rounds of one learner seat)"""
    num_envs: int = 32
    """games stepped together (one learner seat each)"""
    num_steps: int = 32
    """rounds per game per rollout"""
    learning_rate: float = 6e-4
    """Adam's learning rate, decreasing linearly to 0 over the run"""
    gamma: float = 0.97
    """discount factor"""
    gae_lambda: float = 0.9
    """lambda of generalized advantage estimation"""
    num_minibatches: int = 4
    """minibatches per epoch of an update"""
    update_epochs: int = 2
    """epochs over the rollout per update"""
    clip_coef: float = 0.2
    """PPO's clipping of the probability ratio"""
    ent_coef: float = 0.01
    """weight of the entropy bonus"""
    vf_coef: float = 0.5
    """weight of the value loss"""
    max_grad_norm: float = 0.5
    """gradients are clipped to this norm"""
    opponents: str = "Demo,Demo,Demo"
    """seat sets separated by ';' (each three bots, 'self': the latest snapshot), or
    'league:BOT,BOT' (a self-play league of those bots and the learner's snapshots)"""
    credit: str = ""
    """'units' (per-unit credit, computed by the server; weights as 'units:gem=45,capture=5'),
    'team' (the seat's reward), or '' (units where the game offers it)"""
    reward_scale: float = 0.1
    """rewards are multiplied by this before PPO sees them"""
    command_order: str = ""
    """the order of the learner's commands (env option, recorded in the export): 'slot', or
    one the game offers ('' takes its first, e.g. Crematoria's attacks_first)"""
    opponent_order: str = ""
    """how the learner sees its opponents (env option, recorded in the export): 'seat' or
    one the game offers ('score', the leader first); '' takes --init's order, else 'seat'"""
    tensors: str = ""
    """the observation tensors the network takes, comma-separated (env option, recorded in
    the export; '' all of them): 'board,units,globals' spares Crematoria's path searches"""
    net: str = "local"
    """the network: 'local' (each unit reads the cells around it) or 'conv', with sizes as
    'local:hidden=128,crop=7' (jgym.torch.NetConfig)"""
    init: str = ""
    """start from this checkpoint (bc.py's or another run's: its network and credit)"""
    kl_init: float = 0.0
    """weight of a penalty KL(init || policy) per move toward --init's policy, frozen (0: none);
    with it, a clone's value warm-up trains the value head alone (the policy stays the clone's)"""
    eval_every: int = 20
    """updates between evaluations, checkpoints and snapshots (0: only at the end)"""
    eval_games: int = 32
    """games of the final evaluation (greedy policy); the periodic ones play half"""
    eval_opponents: str = "Demo,Demo,Demo"
    """the three seats the evaluations play against (a league's anchor table)"""
    run_dir: str = ""
    """the run's directory; one that has a checkpoint continues from it (default:
    runs/<game>__<seed>__<unix time>)"""
    config: str = ""
    """the game's configuration file (default: the game's default)"""


def env_options(args: Args, spec: Any, agent: BoardNet | None, resumed: bool) -> dict[str, Any]:
    """The envs' options: the orders and credit the game offers (ListGames), or the checkpoint's."""
    offers_credit = bool(spec.unit_reward.name)
    credit, _, weights = (args.credit or ("units" if offers_credit else "team")).partition(":")
    orders = list(spec.action_orders)
    command = args.command_order or (orders[0] if orders else "slot")
    # the order --init's network learned with (a clone's: its dataset's) unless the line names one
    opponent = args.opponent_order or (agent.opponent_order if agent is not None else "seat")
    if agent is not None:  # its value head decides the credit; a resumed run keeps its orders
        credit = "team" if agent.team_value else "units"
        if resumed:
            command, opponent = agent.command_order, agent.opponent_order
    if credit not in ("units", "team") or (credit == "units" and not offers_credit):
        raise SystemExit(f"--credit {args.credit}: want team, or units where the game offers it")
    return {
        "command_order": command,
        "opponent_order": opponent,
        "unit_rewards": credit == "units",
        "credit_weights": {k: float(v) for k, v in (w.split("=") for w in weights.split(",") if w)},
        "config": Path(args.config).read_text() if args.config else "",
    }


def export_snapshot(agent: Any, run: Path, update: int) -> Path:
    """Exports the policy as run/snapshots/update_NNNNN.onnx (for 'self' seats and the league)."""
    path = (run / "snapshots" / f"update_{update:05d}.onnx").resolve()
    export_onnx(agent, path)
    return path


def main(args: Args) -> dict[str, Any]:
    """Trains, exports, evaluates; returns the summary."""
    keep_freed_memory()
    ids = {n.lower(): g for g in jgym.GAMES for n in (g, g.split("-v")[0])}
    game = args.game = ids.get(args.game.lower(), "")
    if not game:
        raise SystemExit(f"--game: not one of {', '.join(jgym.GAMES)}")
    stem = f"runs/{game.split('-v')[0].lower()}__{args.seed}__{int(time.time())}"
    run = Path(args.run_dir or stem)
    saved = run / "checkpoint.pt"
    resumed = torch.load(saved, weights_only=True) if saved.is_file() else None
    random.seed(args.seed)
    np.random.seed(args.seed)
    torch.manual_seed(args.seed)
    # Reproducible on a CPU: the same seed and --threads give the same policy
    # whatever the machine's load (every step is synchronous).
    device = torch.device(args.device)
    torch.set_num_threads(args.threads)
    torch.use_deterministic_algorithms(device.type == "cpu")

    league: League | None = None
    sets = [tuple(s.strip() for s in x.split(",")) for x in args.opponents.split(";")]
    if args.opponents.startswith("league:"):
        league = League(args.opponents.removeprefix("league:").split(","),
                        anchor=args.eval_opponents.split(","), seed=args.seed)  # fmt: skip
        if resumed and resumed["state"]["league"]:
            league = League.from_state_dict(json.loads(resumed["state"]["league"]))
    config = Path(args.config).read_text() if args.config else ""
    tensors = [t for t in args.tensors.split(",") if t]
    probe = jgym.make_vec(game, num_envs=1, opponents=("Null",) * 3, config=config, tensors=tensors)
    info = describe(probe.spec_proto)  # the configuration's shapes
    probe.close()
    agent: BoardNet | None = None
    warmup = 0
    if resumed or args.init:  # the checkpoint's network, value head and (resumed) orders
        agent, ck = load_checkpoint(saved if resumed else args.init, info=info)
        warmup = VALUE_WARMUP if ck["network"]["trained"] == "bc" and not resumed else 0
    options = env_options(args, game_spec(game), agent, resumed is not None)
    options["tensors"] = tensors
    orders = {k: options[k] for k in ("command_order", "opponent_order")}
    if agent is None:
        agent = build_agent(info, args.net, team_value=not options["unit_rewards"], **orders)
    agent.command_order, agent.opponent_order = orders["command_order"], orders["opponent_order"]
    restart = resumed["state"]["lanes"] if resumed else None
    envs = Lanes(
        game,
        args.num_envs,
        seed=args.seed,
        opponents=sets,
        league=league,
        restart=restart,
        **options,
    )
    agent = agent.to(device).train()
    ref = None  # --kl-init: the policy PPO stays near, frozen, and the layers it shares
    if args.kl_init > 0:
        ref = load_checkpoint(args.init, info=info)[0].to(device).eval().requires_grad_(False)
    shared = [p for name, p in agent.named_parameters() if not name.startswith("critic.")]
    optimizer = torch.optim.Adam(agent.parameters(), lr=args.learning_rate, eps=1e-5)
    history, phases = History.load(run / "history.json") if resumed else History(), Phases()
    step, first, t0 = 0, 1, time.time()
    if resumed:
        st = resumed["state"]
        optimizer.load_state_dict(st["optimizer"])
        step, first = st["step"], st["update"] + 1
        set_rng_state(st["rng"])
        print(f"resuming {run} at update {first - 1}, step {step}")
    run.mkdir(parents=True, exist_ok=True)
    writer = SummaryWriter(str(run))
    writer.add_text("args", "\n".join(f"{k}: {v}" for k, v in dataclasses.asdict(args).items()))
    slot_credit = options["unit_rewards"]

    n, u, T = args.num_envs, info.num_slots, args.num_steps  # noqa: N806
    names = agent.input_names
    obs = to_torch(envs.all_obs(), names, device)
    bufs = [torch.zeros((T, *x.shape), dtype=x.dtype, device=device) for x in obs]
    buf_act = torch.zeros((T, n, u), dtype=torch.long, device=device)
    buf_logp = torch.zeros((T, n, u), device=device)
    buf_pre: torch.Tensor | None = None  # the local network's block_inputs, kept for the update
    per = (T, n, u) if slot_credit else (T, n)
    buf_rew, buf_done, buf_val = (torch.zeros(per, device=device) for _ in range(3))
    norm = None if slot_credit else RewardNorm(n, args.gamma)
    batch = n * T
    num_updates = max(1, args.total_timesteps // batch)
    step_start, t_start = step, time.time()

    def evaluate(games: int, tag: str) -> dict[str, Any]:
        r = jgym.evaluate(greedy(agent), opponents=args.eval_opponents.split(","), n_games=games,
                          game=game, config=options["config"], verbose=False)  # fmt: skip
        s = {"step": step, "time": time.time() - t0, **r.summary()}
        history.evals.append(s)
        for k in ("win_rate", "mean_score", "mean_rank"):
            writer.add_scalar(f"eval/{k}", s[k], step)
        print(f"[{tag}] step {step}: {r}", flush=True)
        return s

    def checkpoint(update: int) -> None:
        state = {"optimizer": optimizer.state_dict(), "step": step, "update": update,
                 "league": json.dumps(league.state_dict()) if league else "",
                 "lanes": envs.state, "rng": rng_state()}  # fmt: skip
        save_checkpoint(run / "checkpoint.pt", agent, args=dataclasses.asdict(args), state=state)
        history.save(run / "history.json")

    if league is not None and not resumed:  # the starting policy (a clone, say) joins the pool
        league.add_snapshot(export_snapshot(agent, run, 0), 0, "snap_0")
    update = first - 1
    for update in range(first, num_updates + 1):
        optimizer.param_groups[0]["lr"] = (1.0 - (update - 1.0) / num_updates) * args.learning_rate
        agent.eval()
        for t in range(T):
            with phases("buffers"):
                for buf, x in zip(bufs, obs, strict=True):
                    buf[t] = x
            with phases("policy"), torch.inference_mode():
                pre = agent.block_inputs(obs[agent.i_board])
                logits, value = agent.heads(*obs, pre=pre)
                if pre is not None:
                    if buf_pre is None:
                        buf_pre = torch.zeros((T, *pre.shape), device=device)
                    buf_pre[t] = pre
                action, buf_logp[t] = sample(logits)
                buf_val[t], buf_act[t] = value, action
            with phases("env"):
                out = envs.step(action.cpu().numpy().astype(np.int8))
            step += n
            with phases("credit"):
                if slot_credit:
                    assert out.unit_rewards is not None
                    buf_rew[t] = torch.from_numpy(out.unit_rewards * args.reward_scale).to(device)
                    buf_done[t] = torch.from_numpy(out.slot_done.astype(np.float32)).to(device)
                else:
                    assert norm is not None
                    r = norm(out.reward.astype(np.float64) * args.reward_scale, out.done)
                    buf_rew[t] = torch.from_numpy(r.astype(np.float32)).to(device)
                    buf_done[t] = torch.from_numpy(out.done.astype(np.float32)).to(device)
            with phases("buffers"):
                obs = to_torch(out.obs, names, device)
                history.add_games(step, out.finals)
                for f in out.finals:
                    writer.add_scalar("charts/score", f.score, step)
                    writer.add_scalar("charts/win", float(f.win), step)

        # GAE per unit slot (or per seat); buf_done[t]: the episode ends with step t.
        with phases("gae"), torch.inference_mode():
            next_value = agent.heads(*obs)[1]
            adv = torch.zeros_like(buf_rew)
            last = torch.zeros_like(buf_rew[0])
            for t in reversed(range(T)):
                nv = next_value if t == T - 1 else buf_val[t + 1]
                nonterminal = 1.0 - buf_done[t]
                delta = buf_rew[t] + args.gamma * nv * nonterminal - buf_val[t]
                last = delta + args.gamma * args.gae_lambda * nonterminal * last
                adv[t] = last
            returns = adv + buf_val

        flat = [b.flatten(0, 1) for b in bufs]
        f_act, f_logp = buf_act.flatten(0, 1), buf_logp.flatten(0, 1)
        f_adv, f_ret = adv.flatten(0, 1), returns.flatten(0, 1)
        agent.train()
        with phases("update"):
            # What the network reads of the boards, once for every epoch.
            with torch.no_grad():
                cells = agent.read_cells(flat[agent.i_board], flat[agent.i_units])
                columns, kept_pre = None, None
                if buf_pre is not None:
                    kept_pre = buf_pre.flatten(0, 1)
                    columns = kept_pre.flatten(0, 1).ne(0).any(0).nonzero().squeeze(1)
                    kept_pre = kept_pre[..., columns]
            mb = batch // args.num_minibatches
            clipfracs = []
            kl_ref = torch.zeros(())
            for _epoch in range(args.update_epochs):
                perm = torch.randperm(batch, device=device)
                for start in range(0, batch, mb):
                    idx = perm[start : start + mb]
                    # Only the slots that are mine: [N, A] logits, their actions...
                    inputs = [f[idx] for f in flat]
                    kept: dict[str, Any] = {"columns": columns}
                    kept["pre"] = None if kept_pre is None else kept_pre[idx]
                    kept["cells"] = None if cells is None else (cells[0], cells[1][idx])
                    logits, value, bi, ui = agent.packed(*inputs, **kept)
                    logp_all = F.log_softmax(logits, -1)
                    logp = logp_all.gather(-1, f_act[idx][bi, ui].unsqueeze(-1)).squeeze(-1)
                    count = max(len(bi), 1)
                    entropy = -(logp_all.exp() * logp_all).sum() / count
                    logratio = logp - f_logp[idx][bi, ui]
                    ratio = logratio.exp()
                    with torch.no_grad():
                        approx_kl = ((ratio - 1) - logratio).sum() / count
                        clipfracs.append(
                            float(((ratio - 1.0).abs() > args.clip_coef).sum()) / count
                        )
                    # per slot, or the seat's advantage for each of its units
                    a = f_adv[idx][bi, ui] if slot_credit else f_adv[idx][bi]
                    mu = a.sum() / count
                    a = (a - mu) / (((a - mu) ** 2).sum() / count).sqrt().add(1e-8)
                    clipped = ratio.clamp(1 - args.clip_coef, 1 + args.clip_coef)
                    pg_loss = torch.max(-a * ratio, -a * clipped).sum() / count
                    if slot_credit:  # over my units, or over the games (team)
                        v_loss = 0.5 * ((value - f_ret[idx][bi, ui]) ** 2).sum() / count
                    else:
                        v_loss = 0.5 * ((value - f_ret[idx]) ** 2).mean()
                    loss = args.vf_coef * v_loss
                    if update > warmup:
                        loss = loss + pg_loss - args.ent_coef * entropy
                    if ref is not None and update > warmup:  # the same inputs, the ref's moves
                        with torch.no_grad():
                            ref_logp = F.log_softmax(ref.packed(*inputs, **kept)[0], -1)
                        p_ref = ref_logp.exp()  # masked moves: 0, left out
                        kl_ref = (p_ref * (ref_logp - logp_all).where(p_ref > 0, 0.0)).sum() / count
                        loss = loss + args.kl_init * kl_ref
                    optimizer.zero_grad()
                    loss.backward()
                    for p in shared if ref is not None and update <= warmup else ():
                        p.grad = None  # the warm-up trains the value head alone
                    nn.utils.clip_grad_norm_(agent.parameters(), args.max_grad_norm)
                    optimizer.step()

        score, win_rate = history.recent()
        stats = {"step": step, "time": time.time() - t0,
                 "sps": (step - step_start) / (time.time() - t_start), "pg_loss": pg_loss.item(),
                 "v_loss": v_loss.item(), "entropy": entropy.item(), "approx_kl": approx_kl.item(),
                 "kl_init": kl_ref.item(), "clipfrac": float(np.mean(clipfracs)),
                 "lr": optimizer.param_groups[0]["lr"],
                 "score": score, "win_rate": win_rate}  # fmt: skip
        history.updates.append(stats)
        for k in ("pg_loss", "v_loss", "entropy", "approx_kl", "kl_init", "clipfrac"):
            writer.add_scalar(f"losses/{k}", stats[k], step)
        writer.add_scalar("charts/SPS", stats["sps"], step)
        ent, sps = stats["entropy"], stats["sps"]
        progress = (
            f"score {score:.1f} win {win_rate:.2f}"
            if history.games
            else "no training game finished yet"
        )  # no nan before the first game ends
        print(f"update {update}/{num_updates} step {step}: {progress} "
              f"entropy {ent:.2f} ({sps:.0f} steps/s)", flush=True)  # fmt: skip
        if args.eval_every and update % args.eval_every == 0:
            with phases("eval"):
                snap = export_snapshot(agent, run, update)
                if league is not None:
                    league.add_snapshot(snap, step, f"snap_{update}")
                elif any("self" in s for s in sets):
                    envs.reload(str(snap))
                    obs = to_torch(envs.all_obs(), names, device)
                if args.eval_games:
                    evaluate(max(4, args.eval_games // 8 * 4), "eval")
                checkpoint(update)
    envs.close()
    checkpoint(update)
    export_onnx(agent, run / "model.onnx", dataclasses.asdict(args))
    final = evaluate(args.eval_games, "final") if args.eval_games else None
    took = max(time.time() - t_start, 1e-9)
    summary: dict[str, Any] = {
        "run": str(run), "game": game, "steps": step, "updates": update,
        "train_seconds": time.time() - t0, "sps": (step - step_start) / took,
        "phases": phases.summary(step - step_start), "final_eval": final,
        "onnx": str(run / "model.onnx"),
        "options": {k: v for k, v in options.items() if k != "config"},
    }  # fmt: skip
    if league is not None:
        path = (run / "snapshots" / "learner.onnx").resolve()
        export_onnx(agent, path)
        games = max(4, min(24, args.eval_games))  # rating games: at most 24
        learner = [("learner", f"policy:{path}")]
        got = league.rate(learner, game=game, games=games, config=args.config)
        history.ratings.append({"step": step, "ratings": got})
        summary["ratings"], summary["league"] = got, league.state_dict()["members"]
        print(league.table())
    history.summary = summary
    history.save(run / "history.json")
    history.plot(run / "learning_curve.png")
    writer.close()
    print(json.dumps(summary, default=float))
    return summary


def parse_args(argv: list[str] | None = None) -> Args:
    """The command line (``--help`` describes each flag); JGYM_QUICK shrinks it to a smoke test."""
    args = parse(Args, argv)
    if os.environ.get("JGYM_QUICK"):  # the docs harness: two small updates, small evaluations
        args.num_envs, args.num_steps = min(args.num_envs, 8), min(args.num_steps, 16)
        args.num_minibatches = min(args.num_minibatches, 2)
        args.total_timesteps = min(args.total_timesteps, 2 * args.num_envs * args.num_steps)
        args.eval_games = min(args.eval_games, 4)
    return args


if __name__ == "__main__":
    os.environ.setdefault("OMP_NUM_THREADS", "2")
    main(parse_args())
