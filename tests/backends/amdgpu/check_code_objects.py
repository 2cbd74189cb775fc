"""Compiles models into HSA code objects for AMD presets and checks what
their kernels' metadata says (llvm-readelf --notes):
check_code_objects.py XSTITCH_RUN LLVM_READELF OUT_DIR MODEL... -- PRESET...

MODEL is an .xs or .onnx file; an .onnx file's dims are bound by the
exporter's (none are needed to compile). For every model and preset the
code object must be an AMDGPU ELF for the preset whose every kernel has the
preset's wavefront size, a workgroup of whole wavefronts, at most 64 KiB of
LDS, no scratch (private segment) and no VGPR spills: xstitch's plans keep
their state in registers and LDS except for a scan's or top-k's stack arrays,
which no model here has unless its name says so. Prints one line per model
and preset; exits 1 at the first failure."""
import pathlib
import re
import subprocess
import sys

WAVE = {"gfx90a": 64, "gfx942": 64, "gfx1100": 32}

args = sys.argv[1:]
split = args.index("--")
run, readelf, out = args[:3]
models, presets = args[3:split], args[split + 1:]


def fail(what, output=""):
    sys.exit(f"{what}\n{output}")


for model in map(pathlib.Path, models):
    for preset in presets:
        hsaco = pathlib.Path(out) / f"{model.stem}.{preset}.hsaco"
        with open(hsaco, "wb") as file:
            emitted = subprocess.run([run, str(model), "--emit=hsaco", f"--target={preset}"],
                                     stdout=file, stderr=subprocess.PIPE, text=False)
        if emitted.returncode != 0:
            fail(f"{model.stem} {preset}: emit failed", emitted.stderr.decode())
        notes = subprocess.run([readelf, "--notes", str(hsaco)], capture_output=True, text=True)
        if notes.returncode != 0:
            fail(f"{model.stem} {preset}: llvm-readelf failed", notes.stderr)
        text = notes.stdout
        if f"amdhsa.target:   amdgcn-amd-amdhsa--{preset}" not in text:
            fail(f"{model.stem} {preset}: the code object is not for {preset}", text)
        kernels = text.split("  - .agpr_count:")[1:] if "agpr_count" in text else \
            re.split(r"\n  - \.args:", text)[1:]
        if not kernels:
            fail(f"{model.stem} {preset}: no kernels in the code object", text)
        stack = "topk" in model.stem or "cumsum" in model.stem
        for kernel in kernels:
            field = lambda name: int(re.search(rf"\.{name}:\s+(\d+)", kernel).group(1))
            name = re.search(r"\.name:\s+(k\S+)", kernel).group(1)
            problems = []
            if field("wavefront_size") != WAVE[preset]:
                problems.append(f"wavefront_size {field('wavefront_size')}")
            if field("max_flat_workgroup_size") % WAVE[preset] != 0:
                problems.append(f"max_flat_workgroup_size {field('max_flat_workgroup_size')}")
            if field("group_segment_fixed_size") > 65536:
                problems.append(f"group_segment_fixed_size {field('group_segment_fixed_size')}")
            if field("private_segment_fixed_size") != 0 and not stack:
                problems.append(f"private_segment_fixed_size {field('private_segment_fixed_size')}")
            if field("vgpr_spill_count") != 0:
                problems.append(f"vgpr_spill_count {field('vgpr_spill_count')}")
            if problems:
                fail(f"{model.stem} {preset}: kernel {name}: " + ", ".join(problems), kernel)
        print(f"{model.stem} {preset}: {len(kernels)} kernels checked")
