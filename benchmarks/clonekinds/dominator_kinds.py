"""Accuracy of a Dominator clone per kind of decision, on a dataset split as bc.py splits it.

    PYTHONPATH=python-client python benchmarks/clonekinds/dominator_kinds.py CKPT DATA [N] [PART]

CKPT is a bc.py checkpoint, DATA the ``jgym dataset`` directory it was
trained on (bc.py's split: 20% of the traces held out, seed 1), N the
number of batches of 256 seat-rounds read (default 40), PART held (the
default) or train, the part of the split read. Each label of the
seat's own units is put in kinds read from the observation (the units
tensor's type, the board's planes): by unit type, "none" when the label
is no move, "attack" for a knight whose label steps onto an enemy farmer
or knight, else a walk, split by how far what Khan walks the unit to is
(Chebyshev distance from the unit): for a farmer the nearest cell to
paint (not a wall, no unit, not my colour), for a knight the nearest
enemy farmer or knight, for a witch the nearest enemy farmer or knight;
"in crop" when within 3 (the 7 x 7 cells the local network reads around
the unit), else "beyond". The output is JSON: per kind, the count and the
accuracy of the argmax. The loop over the batches is predictions.py's.
"""

import json
import sys

import numpy as np
from predictions import Tally, predictions

ckpt, data = sys.argv[1], sys.argv[2]
nb = int(sys.argv[3]) if len(sys.argv) > 3 else 40
which = sys.argv[4] if len(sys.argv) > 4 else "held"
TYPES = ("farmer", "knight", "witch")
DI = np.array([1, 1, 0, -1, -1, -1, 0, 1, 0])
DJ = np.array([0, 1, 1, 1, 0, -1, -1, -1, 0])
tot = Tally()
for b, (pred,) in predictions(data, [ckpt], nb, which):
    lab = b["action"].astype(int)
    u = b["units"].astype(int)
    board = b["board"].astype(int)
    terr, owner, unitp = board[:, 0], board[:, 1], board[:, 2]
    n = terr.shape[-1]
    for s in range(u.shape[0]):
        ids = np.nonzero((u[s, :, 0] == 1) & (u[s, :, 6] == 1))[0]
        if len(ids) == 0:
            continue
        paint = np.argwhere((terr[s] == 1) & (owner[s] != 1) & (unitp[s] == 0))
        code = unitp[s]
        prey = np.argwhere((code >= 4) & ((code - 1) % 3 != 2))
        for i in ids:
            t = TYPES[u[s, i, 2]]
            r, c = u[s, i, 4], u[s, i, 5]
            want, p = lab[s, i], pred[s, i]
            ok = int(want == p)
            if want == 8:
                k = f"{t}: none"
            else:
                tr, tc = r + DI[want], c + DJ[want]
                x = code[tr, tc] if 0 <= tr < n and 0 <= tc < n else 0
                if t == "knight" and x >= 4 and (x - 1) % 3 != 2:
                    k = "knight: attack"
                else:
                    tg = paint if t == "farmer" else prey
                    d = np.abs(tg - [r, c]).max(1).min() if len(tg) else 99
                    k = f"{t}: walk, target {'in crop' if d <= 3 else 'beyond'}"
            tot.add(ok, k, t, "all")
out = tot.summary()
print(json.dumps({"ckpt": ckpt, "part": which, "batches": nb, "kinds": out}, indent=1))
