"""Accuracy of Moria clones of Balin per kind of decision, on a dataset split as bc.py splits it.

    PYTHONPATH=python-client python benchmarks/clonekinds/moria_kinds.py DATA N CKPT [CKPT ...]

DATA is a ``jgym dataset`` directory of moria-obs-2 (it has the
``targets`` tensor, which sorts the decisions; a clone of moria-obs-1
reads the first four tensors of the same samples), N the number of
batches of 256 seat-rounds of the held-out part read (bc.py's split: 20%
of the traces, seed 1). Each unit of the seat is put in one kind, read
from the observation: a wizard; a dwarf whose label is no move; a dwarf
on a cell where the Balrog may kill or next to a troll (Balin makes it
flee); a dwarf beside another clan's dwarf or wizard (Balin attacks); a
dwarf with a target Balin assigns it (``targets`` group 0), by the cost of
the way there; the other dwarves (Balin sends them towards the nearest
target). For each kind and each clone: the count and the accuracy of
the argmax. The output is JSON. The loop over the batches is
predictions.py's.
"""

import json
import sys

import numpy as np
from predictions import Tally, predictions

data, nb, ckpts = sys.argv[1], int(sys.argv[2]), sys.argv[3:]
tot = {c: Tally() for c in ckpts}
for b, preds in predictions(data, ckpts, nb):
    lab = b["action"].astype(int)
    u = b["units"].astype(int)
    board = b["board"].astype(int)
    tg = b["targets"].astype(int)
    B = u.shape[0]
    for s in range(B):
        unit_plane, flags = board[s, 4], board[s, 6]
        for i in np.nonzero(u[s, :, 0] == 1)[0]:
            r, c = u[s, i, 4], u[s, i, 5]
            want = lab[s, i]
            if u[s, i, 2] == 1:
                kind = "wizard"
            elif want == 8:
                kind = "dwarf: none"
            elif flags[r, c] & (1 | 4):
                kind = "dwarf: in danger (flee)"
            else:
                near = unit_plane[max(r - 1, 0) : r + 2, max(c - 1, 0) : c + 2]
                if np.isin(near, [2, 3, 4, 6, 7, 8]).any():
                    kind = "dwarf: enemy beside (attack)"
                elif tg[s, i, :8].any():
                    cost = (
                        "<=2"
                        if tg[s, i, 8]
                        else "3-6"
                        if tg[s, i, 9]
                        else "7-15"
                        if tg[s, i, 10]
                        else ">15"
                    )
                    kind = f"dwarf: assigned target, cost {cost}"
                else:
                    kind = "dwarf: no assigned target"
            for c_, p in zip(ckpts, preds, strict=True):
                tot[c_].add(int(p[s, i] == want), kind, "all")
out = {c: t.summary() for c, t in tot.items()}
print(json.dumps({"data": data, "batches": nb, "clones": out}, indent=1))
