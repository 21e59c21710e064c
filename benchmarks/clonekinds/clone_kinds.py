"""Accuracy of a Pandemic clone per kind of decision, on a dataset split as bc.py splits it.

    PYTHONPATH=python-client python benchmarks/clonekinds/clone_kinds.py CKPT DATA [N] [held|train]

CKPT is a bc.py checkpoint, DATA the ``jgym dataset`` directory it was
trained on (bc.py's split: 20% of the traces held out, seed 1),
N the number of batches of 256 seat-rounds read (default 60). Each of the
seat's units' labels is put in one kind, read from the observation:
"attack" when an enemy unit stands beside the unit (Pasteur then always
attacks), "none" when the label is no move, else a walk, split by the
Manhattan distance to the nearest enemy unit (at most 2: Pasteur's chase)
or else to the nearest city or path cell the seat does not own; walks are
also counted by the unit's own cell (a city or path cell, or grass). The
output is JSON: per kind, the count and the accuracy of the argmax, and
the confusion between moving and not moving.
"""

import collections
import json
import sys

import jgym.torch as jt
import numpy as np
import torch
from jgym.dataset import open_dataset
from jgym.spec import describe

ckpt, data = sys.argv[1], sys.argv[2]
nb = int(sys.argv[3]) if len(sys.argv) > 3 else 60
which = sys.argv[4] if len(sys.argv) > 4 else "held"
torch.set_num_threads(1)
ds = open_dataset(data)
train, held = ds.split(0.2, seed=1)
part = held if which == "held" else train
info = describe(jt.game_spec(ds.env_id))
agent = jt.load_agent(ckpt, info=info).eval()
names = ds.observation_names
tot = collections.defaultdict(lambda: [0, 0])
conf = np.zeros((2, 2), int)  # label moved? x pred moved?
with torch.no_grad():
    for bi, b in enumerate(part.batches(256, shuffle=False)):
        if bi >= nb:
            break
        obs = tuple(torch.from_numpy(np.ascontiguousarray(b[n])) for n in names)
        logits, _ = agent.heads(*obs)
        pred = logits.argmax(-1).numpy()
        lab = b["action"].astype(int)
        u = b["units"].astype(int)
        board = b["board"].astype(int)
        B, U, _ = u.shape
        mine = u[..., 0] == 1
        # board planes: 0 terrain, 4 conquest (1 = mine)
        terr, conq, unitp = board[:, 0], board[:, 4], board[:, 2]
        for s in range(B):
            ids = np.nonzero(mine[s])[0]
            if len(ids) == 0:
                continue
            tgt = np.argwhere(((terr[s] == 2) | (terr[s] == 3)) & (conq[s] != 1))
            en = np.argwhere(unitp[s] >= 2)
            for i in ids:
                r, c = u[s, i, 3], u[s, i, 4]
                want, p = lab[s, i], pred[s, i]
                ok = int(want == p)
                conf[int(want != 4), int(p != 4)] += 1
                if u[s, i, 12] > 0:
                    k = "attack (enemy adjacent)"
                elif want == 4:
                    k = "none (stay / no step)"
                else:
                    de = np.abs(en - [r, c]).sum(1).min() if len(en) else 99
                    dt = np.abs(tgt - [r, c]).sum(1).min() if len(tgt) else 99
                    if de <= 2:
                        k = "walk: enemy within 2 (chase)"
                    else:
                        band = (
                            "<=2"
                            if dt <= 2
                            else "3-6"
                            if dt <= 6
                            else "7-15"
                            if dt <= 15
                            else ">15"
                        )
                        k = f"walk: unowned city/path at {band}"
                    on_target = u[s, i, 9] in (2, 3)
                    k2 = "walk from a city/path cell" if on_target else "walk from grass"
                    tot[k2][0] += ok
                    tot[k2][1] += 1
                for key in (k, "all"):
                    tot[key][0] += ok
                    tot[key][1] += 1
out = {k: {"n": n, "acc": round(c / n, 4)} for k, (c, n) in sorted(tot.items())}
print(
    json.dumps(
        {
            "ckpt": ckpt,
            "part": which,
            "batches": nb,
            "kinds": out,
            "confusion [label none/move][pred none/move]": conf.tolist(),
        },
        indent=1,
    )
)
