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
the confusion between moving and not moving. The loop over the batches is
predictions.py's.
"""

import json
import sys

import numpy as np
from predictions import Tally, predictions

ckpt, data = sys.argv[1], sys.argv[2]
nb = int(sys.argv[3]) if len(sys.argv) > 3 else 60
which = sys.argv[4] if len(sys.argv) > 4 else "held"
tot = Tally()
conf = np.zeros((2, 2), int)  # label moved? x pred moved?
for b, (pred,) in predictions(data, [ckpt], nb, which):
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
                    band = "<=2" if dt <= 2 else "3-6" if dt <= 6 else "7-15" if dt <= 15 else ">15"
                    k = f"walk: unowned city/path at {band}"
                on_target = u[s, i, 9] in (2, 3)
                tot.add(ok, "walk from a city/path cell" if on_target else "walk from grass")
            tot.add(ok, k, "all")
print(
    json.dumps(
        {
            "ckpt": ckpt,
            "part": which,
            "batches": nb,
            "kinds": tot.summary(),
            "confusion [label none/move][pred none/move]": conf.tolist(),
        },
        indent=1,
    )
)
