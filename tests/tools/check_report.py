"""Checks an xstitch-run --report=json file: one JSON object with the fields
the issue asks for. Usage: check_report.py FILE bench|plain|ref"""
import json
import sys

path, mode = sys.argv[1], sys.argv[2]
text = open(path).read()
report = json.loads(text)  # fails unless stdout is exactly one JSON value
assert isinstance(report, dict), report
for key in ("device", "compile_ms", "kernels", "run_us", "check"):
    assert key in report, f"missing {key}: {report}"
assert isinstance(report["kernels"], list)
if mode == "ref":
    assert report["device"] == "ref" and report["kernels"] == [], report
    assert report["check"] == "pass", report
else:
    assert report["device"] == "cpu", report
    assert report["compile_ms"] >= 0
    stages = report["compile_stages_ms"]
    assert all(stages[s] >= 0 for s in ("plan", "llvm", "load")), stages
    # A compile that missed the cache spends most of its time in LLVM.
    assert report["cache_hit"] or stages["llvm"] > 0, stages
    assert sum(stages.values()) <= report["compile_ms"] + 1e-3, report
    assert report["kernels"], report
    for k in report["kernels"]:
        assert k["name"] and isinstance(k["ops"], list) and k["ops"], k
        if k["kind"] == "launch":
            # What the stitcher did: the launched variant, its phases, every
            # edge's scheme, and bytes moved against the minimum.
            assert k["variant"] >= 0 and k["phases"] >= 1, k
            assert all(e["scheme"] in ("regional", "global") for e in k["schemes"]), k
            assert k["bytes_moved"] >= k["minimum_bytes"] > 0, k
if mode == "bench":
    assert report["run_us"] > 0 and report["bandwidth_gbps"] > 0, report
    assert report["check"] == "pass", report
    assert all(k["time_us"] is not None and k["time_us"] >= 0 for k in report["kernels"]), report
    # softmax: the max reaches the sum, the sum its reciprocal, the
    # reciprocal and the exps the product, all through block buffers.
    schemes = [e["scheme"] for k in report["kernels"] for e in k["schemes"]]
    assert schemes == ["regional"] * 4, schemes
elif mode == "plain":
    assert report["run_us"] is None and report["check"] is None, report
print("report ok")
