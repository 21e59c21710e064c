#!/usr/bin/env bash
# Creates the Python venv with the jgym client (editable) and the extras
# $JGYM_PY_EXTRAS names (default dev,train,rllib,video: the test tools,
# training with PyTorch, SB3 and MaskablePPO, TensorBoard and matplotlib,
# RLlib on Ray, video with moviepy), at the versions pinned in
# python-client/constraints.txt.
#   scripts/setup-python.sh [VENV]   (default: .venv)
# make setup installs every extra (what CI tests); make demo only train
# (JGYM_PY_EXTRAS=train).
#
# Disk. PyPI's PyTorch for Linux x86_64 is a CUDA build: with its NVIDIA
# libraries and Triton a resolver install (pip install jgym[train]) needs
# about 6.5 GB installed and, since pip downloads every wheel before it
# installs any, about 10 GB at its peak. A CI machine ran out of disk there.
# So on Linux x86_64 the lock of the chosen extras is installed as pinned,
# without the resolver (--no-deps): constraints.txt for every extra,
# constraints-train.txt (cut from it by python-client/scripts/lock_subset.py)
# for train alone; other sets of extras take constraints.txt as constraints
# (pip install -c) with the resolver. The large packages go in a pip call
# each so that no more than one large download sits on disk at a time, and
# Triton (the compiler of torch.compile on GPUs, which jgym never calls:
# 1 GB) is left out. With every extra the venv is then about 4.2 GB, and
# the peak about 4.5 GB (both 1.35 GB more with JGYM_KEEP_CUDA=1, below). `pip check` runs at the end and must find nothing
# missing but Triton.
#
# PyTorch's own CPU build (download.pytorch.org) is tried first: without
# the CUDA libraries (3 GB of the venv) that PyPI's build needs even on a
# machine without a GPU. Where that index is out of reach, the script says
# so and installs PyPI's build.
set -euo pipefail
cd "$(dirname "$0")/.."
venv=${1:-.venv}
extras=${JGYM_PY_EXTRAS:-dev,train,rllib,video}
all_extras=dev,rllib,train,video  # sorted
# The extras, sorted and without duplicates: they name the lock.
extras=$(tr ',' '\n' <<<"$extras" | sed '/^$/d' | sort -u | paste -sd, -)
lock=python-client/constraints.txt
if [ "$extras" != "$all_extras" ]; then
  subset=python-client/constraints-${extras//,/-}.txt
  [ -f "$subset" ] && lock=$subset
fi
start=$SECONDS
step() { echo "[setup $1/3, $((SECONDS - start)) s] $2"; }
# pip's progress bars on a terminal; elsewhere (CI logs, a file) a line per
# wheel as its download starts, with its size and the seconds so far, and
# one when the installation starts.
quiet=()
[ -t 1 ] || quiet=(-q)
pip_install() {
  if [ -t 1 ]; then
    "${pip[@]}" install "$@"
  else
    PYTHONUNBUFFERED=1 "${pip[@]}" install --progress-bar off "$@" | while IFS= read -r line; do
      case $line in
        *"Downloading "*) echo "  [$((SECONDS - start)) s] ${line#*Downloading }" ;;
        "Installing collected packages"*) echo "  [$((SECONDS - start)) s] installing" ;;
      esac
    done
  fi
}
step 1 "Python venv $venv"
# Free disk, for a setup that stops on a full one: every extra needs about
# 4.5 GB where PyTorch's CPU build is out of reach (PyPI's, slimmed: below).
free_kb=$(df -Pk "$(dirname "$venv")" 2>/dev/null | awk 'NR == 2 {print $4}')
[ -n "$free_kb" ] && echo "  $((free_kb / 1024 / 1024)) GB free where the venv goes"
if [ ! -x "$venv/bin/python" ]; then
  python3 -m venv "$venv"
fi
pip=("$venv/bin/python" -m pip)
"${pip[@]}" install -q --no-cache-dir --upgrade pip
pinned() { grep -v '^#' "$lock" | grep -v '^$'; }
# The packages of PyTorch's CUDA build (PyPI's), torch itself apart.
cuda_re='^(nvidia-|cuda-)'
# On a machine without an NVIDIA driver, the CUDA libraries that PyTorch
# only opens on a GPU (dlopen, never a dependency of a library loaded by
# `import torch`: checked with readelf -d on torch/lib/*.so for 2.15) go as
# soon as their package is installed: cuDNN's engines (cuDNN's own loader
# stays), cuSOLVER (torch's CUDA linear algebra, a separate library), nvJitLink,
# the profiler's nvperf, NVSHMEM's device bitcode and the static archives:
# 1.35 GB of the 3.05 GB, a smaller peak on a small disk (a CI machine ran
# out of disk installing them). JGYM_KEEP_CUDA=1 keeps everything. The
# check after the installation trains a small network on the CPU.
site=$("$venv/bin/python" -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])')
slimmed=false
slim_cuda() {
  [ "${JGYM_KEEP_CUDA:-}" = 1 ] && return 0
  { [ -e /proc/driver/nvidia ] || command -v nvidia-smi >/dev/null 2>&1; } && return 0
  local f
  for f in "$site"/nvidia/cudnn/lib/libcudnn_*.so.* "$site"/nvidia/cu*/lib/libcusolver*.so.* \
      "$site"/nvidia/cu*/lib/libnvJitLink.so.* "$site"/nvidia/cu*/lib/libnvperf_*.so \
      "$site"/nvidia/nvshmem/lib/*.bc "$site"/nvidia/cu*/lib/*.a; do
    [ -e "$f" ] && rm -f "$f" && slimmed=true
  done
  return 0
}
uses_lock=false
if { [ "$extras" = "$all_extras" ] || [ "$lock" != python-client/constraints.txt ]; } &&
  [ "$(uname -sm)" = "Linux x86_64" ]; then
  uses_lock=true
fi

step 2 "PyTorch (CPU)"
# PyTorch's own CPU index has the same version without the CUDA libraries;
# it is tried first where pip reaches it ($JGYM_TORCH_INDEX; empty: skip).
torch=$(pinned | grep -i '^torch==')
if [[ ",$extras," =~ ,(train|rllib), ]] && ! "$venv/bin/python" -c 'import torch' 2>/dev/null; then
  index=${JGYM_TORCH_INDEX-https://download.pytorch.org/whl/cpu}
  if [ -n "$index" ] && "${pip[@]}" install -q --no-cache-dir --no-deps --retries 1 --timeout 20 \
      --index-url "$index" "$torch" 2>/dev/null; then
    echo "PyTorch: the CPU build from $index"
  elif [ "$(uname -sm)" = "Linux x86_64" ]; then
    echo "PyTorch: its CPU build's index (${index:-none: JGYM_TORCH_INDEX is empty}) is out of reach from here,"
    echo "  so PyPI's build, the only one PyPI has for Linux x86_64: it is made for NVIDIA GPUs and does"
    echo "  not load without its CUDA libraries, though jgym only uses the CPU. They cost 1.7 to 3 GB of"
    echo "  disk in the venv and most of this setup's download (docs/python.md, \"Install\")."
    if $uses_lock; then
      pkgs=($(pinned | grep -E "$cuda_re") "$torch")
      i=0
      for pkg in "${pkgs[@]}"; do
        i=$((i + 1))
        echo "  [$i/${#pkgs[@]}, $((SECONDS - start)) s] $pkg"
        pip_install --no-cache-dir --no-deps "$pkg"
        slim_cuda
      done
      if $slimmed; then
        echo "  no NVIDIA driver here: removed the CUDA libraries PyTorch loads only on a GPU"
        echo "  (JGYM_KEEP_CUDA=1 keeps them); the venv's nvidia/ is now $(du -sh "$site/nvidia" | cut -f1)"
      fi
    fi
  else
    echo "PyTorch: its CPU build's index (${index:-none}) is out of reach from here: PyPI's build"
  fi
fi

step 3 "jgym and its extras [$extras] from $lock (a few minutes the first time)"
if $uses_lock; then
  # Everything else the lock pins; torch's pure-Python dependencies
  # (sympy, networkx, ...) are among them.
  rest=$(mktemp)
  trap 'rm -f "$rest"' EXIT
  pinned | grep -Ev "$cuda_re" | grep -Evi '^(torch|triton)==' > "$rest"
  echo "  the $(wc -l < "$rest") other packages of $lock"
  pip_install --no-cache-dir --no-deps -r "$rest"
  echo "  [$((SECONDS - start)) s] jgym itself (editable: ./python-client), then pip check"
  # setuptools warns about editable installs in general; nothing to act on.
  PYTHONWARNINGS=ignore::UserWarning "${pip[@]}" install "${quiet[@]}" --no-cache-dir --no-deps -e ./python-client
  # The lock must be whole: pip check lists what an installed package
  # requires and does not find (Triton aside, left out on purpose above).
  problems=$("${pip[@]}" check 2>&1 | grep -v -e '^No broken requirements' -e ' requires triton' || true)
  if [ -n "$problems" ]; then
    echo "$lock is not a whole lock for this venv (update it: see its header):" >&2
    echo "$problems" >&2
    exit 1
  fi
else
  PYTHONWARNINGS=ignore::UserWarning pip_install --no-cache-dir -c "$lock" -e "./python-client[$extras]"
fi
# PyTorch must load and train on this CPU, slimmed or not.
if [[ ",$extras," =~ ,(train|rllib), ]] && ! "$venv/bin/python" -c 'import torch
m = torch.nn.Sequential(torch.nn.Conv2d(2, 4, 3), torch.nn.Flatten(), torch.nn.Linear(36, 2))
m(torch.zeros(1, 2, 5, 5)).sum().backward()' >/dev/null; then
  echo "PyTorch does not run in $venv; if this setup removed CUDA libraries, run it again with JGYM_KEEP_CUDA=1" >&2
  exit 1
fi
echo "Python environment ready in $((SECONDS - start)) s: $venv ($("$venv/bin/python" --version), $(du -sh "$venv" | cut -f1))"
