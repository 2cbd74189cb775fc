#!/usr/bin/env bash
# Writes the exported suite (bench/exported/export_models.py, Debian's
# python3-torch) for checking on another machine, but the whole BERT encoder
# (340 MB of weights) and the BERT layer (28 MB; its hand-written twin and
# the GPT-2 block, of the same size, cover it), so that the GPU package
# stays under the 64 MiB a GPU machine's call carries:
# OUT_DIR/NAME.onnx and OUT_DIR/NAME.flags, the xstitch-run flags that bind
# its dynamic dims to small odd values the reference interpreter checks
# quickly.
#   scripts/export-check-models.sh CACHE_DIR OUT_DIR
# Exports are kept in CACHE_DIR and written again only when missing.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cache=$1
out=$2
mkdir -p "$cache" "$out"
python=/usr/bin/python3
models=$("$python" "$root/bench/exported/export_models.py" --list "$cache" | grep -vx -e bert_base -e bert_layer)
missing=$(for m in $models; do [ -f "$cache/$m.onnx" ] || echo "$m"; done | paste -sd, -)
if [ -n "$missing" ]; then
  "$python" "$root/bench/exported/export_models.py" "$cache" --only "$missing" > /dev/null
fi
for m in $models; do
  cp "$cache/$m.onnx" "$out/"
  "$python" - "$cache/$m.json" > "$out/$m.flags" <<'PY'
import json, sys
small = {"rows": 1003, "tokens": 77, "B": 3, "S": 37, "L": 29, "cols": 3001}
dims = json.load(open(sys.argv[1]))["dims"]
print(" ".join(f"--dim={k}={small.get(k, 5)}" for k in dims))
PY
done
