"""Writes the test models of cppexport (random weights).

    cd python-client && PYTHONPATH=. ../.venv/bin/python \
        ../cppexport/testdata/make_models.py ../cppexport/testdata

- small.onnx: the convolutional network (jgym.torch's Agent: a
  full-resolution and a stride-2 half-resolution map; the committed file was
  written by examples/train_ppo.py's, the same network before jgym.torch)
  with a hidden layer of 16, for Crematoria's tensors as the server
  describes them, exported by jgym.torch.export_onnx. The actor's output
  is scaled up and the biases are random so that decisions vary.
- ops.onnx: a hand-written graph with the same inputs and output that uses
  the operators and attributes the trained network does not: Conv with a
  stride, groups, column padding and no bias, Gemm with transA, alpha and
  beta, Slice with negative steps, ReduceMean with keepdims, Gather with a
  negative index, GatherElements on the last axis, Mul and Add on
  integers, Cast to bool, broadcasting Where, Transpose, Reshape with 0 and
  -1, Unsqueeze with a negative axis.
"""

import sys
from pathlib import Path

import numpy as np
import onnx
import torch
from onnx import TensorProto, helper, numpy_helper

import jgym.torch as jt

U = 80


def small(path: Path) -> None:
    torch.manual_seed(11)
    agent = jt.build_agent(jt.game_info("Crematoria-v0"), "conv:hidden=16")
    assert agent.num_slots == U
    with torch.no_grad():
        agent.unit_out.weight.mul_(100)
        for name, p in agent.named_parameters():
            if name.endswith("bias"):
                p.add_(torch.randn_like(p) * 0.1)
    jt.export_onnx(agent, path)


def ops(path: Path) -> None:
    rng = np.random.default_rng(5)

    def init(name, shape, scale=0.5):
        return numpy_helper.from_array((rng.standard_normal(shape) * scale).astype(np.float32), name)

    def ints(name, values):
        return numpy_helper.from_array(np.array(values, dtype=np.int64), name)

    nodes, inits = [], []
    N = helper.make_node
    inits += [
        init("emb", (128, 6)),
        init("wconv", (4, 3, 3, 3)),          # group 2: 6 -> 4 channels
        init("wg", (4, 16)),                  # Gemm transA: A is [4,1]
        init("cg", (1, 16)),
        init("wu", (8, 11), 1.0),
        init("wpool", (16, 11)),
        ints("zero", 0), ints("minus1", -1), ints("two", 2),
        ints("s_starts", [39, 1]), ints("s_ends", [-100, 1000]), ints("s_axes", [2, 3]), ints("s_steps", [-3, 7]),
        ints("shape1", [0, -1]), ints("ax1", [1]),
        ints("three", 3),
        numpy_helper.from_array(np.array(-1e9, dtype=np.float32), "masked"),
    ]
    nodes += [
        N("Cast", ["board"], ["b64"], to=TensorProto.INT64),
        N("Gather", ["b64", "zero"], ["plane0"], axis=1),                 # [1,40,80]
        N("Gather", ["emb", "plane0"], ["e0"]),                            # [1,40,80,6]
        N("Transpose", ["e0"], ["x"], perm=[0, 3, 1, 2]),                  # [1,6,40,80]
        N("Conv", ["x", "wconv"], ["c1"], group=2, strides=[2, 3], pads=[1, 2, 0, 1],
          kernel_shape=[3, 3], dilations=[1, 2]),                          # [1,4,20,27]
        N("Relu", ["c1"], ["r1"]),
        N("Slice", ["r1", "s_starts", "s_ends", "s_axes", "s_steps"], ["sl"]),  # [1,4,7,4]
        N("ReduceMean", ["sl"], ["pool4"], axes=[2, 3], keepdims=1),     # [1,4,1,1]
        N("Reshape", ["pool4", "shape1"], ["pool"]),                      # [1,4]
        N("Transpose", ["pool"], ["poolT"], perm=[1, 0]),                 # [4,1]
        N("Gemm", ["poolT", "wg", "cg"], ["gm"], transA=1, alpha=0.5, beta=2.0),  # [1,16]
        N("MatMul", ["gm", "wpool"], ["gl"]),                             # [1,11]
        N("Unsqueeze", ["gl", "ax1"], ["gl3"]),                           # [1,1,11]
        N("Cast", ["units"], ["u64"], to=TensorProto.INT64),              # [1,U,8]
        N("Mul", ["u64", "three"], ["u3"]),                               # ints
        N("Add", ["u3", "minus1"], ["u3m"]),
        N("Gather", ["u64", "minus1"], ["ulast"], axis=2),                # [1,U] (on elevator)
        N("Cast", ["u3m"], ["uf"], to=TensorProto.FLOAT),
        N("MatMul", ["uf", "wu"], ["ul"]),                                # [1,U,11]
        N("Add", ["ul", "gl3"], ["lg"]),
        N("Unsqueeze", ["ulast", "minus1"], ["ul3"]),                     # [1,U,1]
        N("Cast", ["ul3"], ["ulb"], to=TensorProto.BOOL),
        N("Relu", ["lg"], ["lgr"]),
        N("Where", ["ulb", "lgr", "lg"], ["lw"]),                         # broadcast
        N("Cast", ["units"], ["uidx0"], to=TensorProto.INT64),
        N("Slice", ["uidx0", "ax1", "three", "two"], ["uidx"]),           # [1,U,2]: owner, type
        N("GatherElements", ["lw", "uidx"], ["pick"], axis=2),            # [1,U,2]
        N("ReduceMean", ["pick"], ["pm"], axes=[-1], keepdims=1),         # [1,U,1]
        N("Add", ["lw", "pm"], ["lw2"]),
        N("Concat", ["globals", "globals"], ["gg"], axis=0),              # [2,16]
        N("Where", ["action_mask", "lw2", "masked"], ["logits"]),
    ]
    graph = helper.make_graph(
        nodes, "ops",
        [
            helper.make_tensor_value_info("board", TensorProto.UINT8, ["batch", 3, 40, 80]),
            helper.make_tensor_value_info("units", TensorProto.UINT8, ["batch", U, 8]),
            helper.make_tensor_value_info("globals", TensorProto.FLOAT, ["batch", 16]),
            helper.make_tensor_value_info("action_mask", TensorProto.BOOL, ["batch", U, 11]),
        ],
        [helper.make_tensor_value_info("logits", TensorProto.FLOAT, ["batch", U, 11])],
        inits,
    )
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)], producer_name="make_models.py")
    model.ir_version = 8
    helper.set_model_props(model, {"observation_version": "crematoria-obs-1", "num_slots": str(U), "action_order": "slot"})
    onnx.checker.check_model(model)
    onnx.save(model, str(path))


if __name__ == "__main__":
    out = Path(sys.argv[1] if len(sys.argv) > 1 else ".")
    small(out / "small.onnx")
    ops(out / "ops.onnx")
