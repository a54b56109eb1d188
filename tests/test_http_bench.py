"""The HTTP benchmark runs end to end: gunicorn with production settings answers every
endpoint it measures, whatever database the suite itself uses."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_http_benchmark_measures_every_endpoint_without_a_failed_request(tmp_path):
    figures = tmp_path / "figures.json"
    result = subprocess.run(
        [
            sys.executable,
            "benchmarks/http_bench.py",
            *("--duration", "0.3", "--rounds", "1", "--warmup", "0.05"),
            *("--json", str(figures)),
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    report = json.loads(figures.read_text())
    assert report["errors"] == []
    assert [row["endpoint"] for row in report["endpoints"]] == [
        "trivial view /healthz",
        "builder page, 10 units",
        "builder page, 200 units",
        "re-price partial, 10 units",
        "re-price partial, 200 units",
        "shared roster, 10 units",
        "shared roster, 200 units",
    ]
    assert all(row["requests"] > 0 for row in report["endpoints"])
    # Every target is judged and printed, met or not.
    assert len(report["targets"]) == 9
    assert result.stdout.count("PASS") + result.stdout.count("MISS") == 9
