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
    assert report["kernels"], report
    for k in report["kernels"]:
        assert k["name"] and isinstance(k["ops"], list) and k["ops"], k
if mode == "bench":
    assert report["run_us"] > 0 and report["bandwidth_gbps"] > 0, report
    assert report["check"] == "pass", report
    assert all(k["time_us"] is not None and k["time_us"] >= 0 for k in report["kernels"]), report
elif mode == "plain":
    assert report["run_us"] is None and report["check"] is None, report
print("report ok")
