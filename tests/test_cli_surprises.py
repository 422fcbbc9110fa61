"""What a newcomer trips on: a flag read in a way the user did not mean is an error (or a
notice), never a quietly different run."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import pytest
from click.testing import CliRunner

from evalplus_ng.cli import main
from evalplus_ng.tasks.artifact import write_plus_file
from evalplus_ng.tasks.registry import load_humaneval, resolve


def test_an_artifacts_folder_that_does_not_exist_is_an_error(tmp_path: Path) -> None:
    # Named by the user, a missing folder gave a base-only run and exit code 0.
    samples = tmp_path / "samples.jsonl"
    samples.write_text(json.dumps({"task_id": "HumanEval/2",
                                   "completion": "    return number % 1.0\n"}) + "\n")
    missing = tmp_path / "no-such-out"
    done = CliRunner().invoke(main, ["evaluate", "--samples", str(samples), "--artifacts",
                                     str(missing), "-j", "1"])
    assert done.exit_code == 2, done.output
    assert f"{missing}: no such folder" in done.output
    assert not list(tmp_path.glob("samples.evalplus-ng.*.json"))


def test_a_misspelt_suite_lists_the_names(tmp_path: Path) -> None:
    samples = tmp_path / "samples.jsonl"
    samples.write_text(json.dumps({"task_id": "HumanEval/2",
                                   "completion": "    return number % 1.0\n"}) + "\n")
    done = CliRunner().invoke(main, ["evaluate", "--samples", str(samples), "--suite", "plsu"])
    assert done.exit_code == 2, done.output
    assert "'plsu' is neither a suite name (auto, base, plus, mini, stress" in done.output


@pytest.mark.parametrize(("suite", "label"), [("edge", "edge"), ("stress", "stress")])
def test_the_edge_and_stress_suites_are_named_in_what_evaluate_prints(
        tmp_path: Path, suite: str, label: str) -> None:
    # --suite edge printed "plus: pass@1", "drop from base to plus", "fail plus".
    [task] = [t for t in load_humaneval() if t.task_id == "HumanEval/53"]
    out = tmp_path / "out"
    out.mkdir()
    dataset = resolve("humaneval")
    write_plus_file([replace(task, plus_inputs=([1000, -7],))], out / dataset.suite_file(suite),
                    dataset.schema)
    samples = tmp_path / "samples.jsonl"
    samples.write_text("".join(json.dumps({"task_id": "HumanEval/53", "completion": body}) + "\n"
                               for body in ("    return x + y\n",
                                            "    return x + y if y >= 0 else 0\n")))
    done = CliRunner().invoke(main, ["evaluate", "--samples", str(samples), "--suite", suite,
                                     "--artifacts", str(out), "-j", "1", "--repair"])
    assert done.exit_code == 0, done.output
    assert f"\n{label}" in done.stdout and f"drop from base to {label}: pass@1 50.0" in done.stdout
    assert f"kills (pass base, fail {label}): 1" in done.stdout
    assert "plus" not in done.stdout.replace("evalplus", ""), done.stdout


def test_evaluate_judges_only_the_tasks_named(tmp_path: Path) -> None:
    # A quick first run: --tasks, as augment takes it.
    samples = tmp_path / "samples.jsonl"
    samples.write_text("".join(json.dumps(row) + "\n" for row in [
        {"task_id": "HumanEval/53", "completion": "    return x + y\n"},
        {"task_id": "HumanEval/2", "completion": "    return number % 1.0\n"},
        {"task_id": "HumanEval/2", "completion": "    return 0.0\n"}]))
    done = CliRunner().invoke(main, ["evaluate", "--samples", str(samples), "--tasks", "53",
                                     "-j", "1"])
    assert done.exit_code == 0, done.output
    assert "--tasks: left out 2 sample(s) of 1 other task(s)" in done.stderr
    assert "1 samples judged" in done.stdout and "over 1 of 1 tasks" in done.stdout
    document = json.loads((tmp_path / "samples.evalplus-ng.base.json").read_text())
    assert list(document["eval"]) == ["HumanEval/53"]
    done = CliRunner().invoke(main, ["evaluate", "--samples", str(samples), "--tasks", "999"])
    assert done.exit_code == 2 and "unknown task number 999" in done.stderr


def test_the_jail_that_ran_the_samples_is_named(tmp_path: Path, jail: str) -> None:
    samples = tmp_path / "samples.jsonl"
    samples.write_text(json.dumps({"task_id": "HumanEval/53",
                                   "completion": "    return x + y\n"}) + "\n")
    done = CliRunner().invoke(main, ["evaluate", "--samples", str(samples), "-j", "1"])
    assert done.exit_code == 0, done.output
    assert f"\njail: {jail}\n" in done.stdout
    document = json.loads((tmp_path / "samples.evalplus-ng.base.json").read_text())
    assert document["evalplus_ng"]["jail"] == jail


def test_a_wrong_output_is_shown_against_the_expected_one_in_results_and_report(
        tmp_path: Path) -> None:
    # As pytest shows a failing assert; the results file and the report said "wrong output".
    samples = tmp_path / "samples.jsonl"
    samples.write_text("".join(json.dumps({"task_id": "HumanEval/53", "completion": body}) + "\n"
                               for body in ("    return x - y\n", "    raise ValueError\n",
                                            "    return x + y\n")))
    done = CliRunner().invoke(main, ["evaluate", "--samples", str(samples), "-j", "1"])
    assert done.exit_code == 0, done.output
    results = tmp_path / "samples.evalplus-ng.base.json"
    entries = json.loads(results.read_text())["eval"]["HumanEval/53"]
    assert entries[0]["base_diff"] == ("assert -1 == 1\n +  where -1 = add(0, 1)\n"
                                       "Full diff:\n- 1\n+ -1")
    assert "base_diff" not in entries[1] and "base_diff" not in entries[2]  # raised; passed
    done = CliRunner().invoke(main, ["evaluate", "--samples", str(samples), "-j", "1",
                                     "--resume"])
    assert done.exit_code == 0 and "(3 reused)" in done.stdout, done.output
    assert json.loads(results.read_text())["eval"]["HumanEval/53"] == entries
    done = CliRunner().invoke(main, ["report", str(results), "--out", str(tmp_path / "r")])
    assert done.exit_code == 0, done.output
    page = (tmp_path / "r" / "report.html").read_text()
    assert ('<pre class="diff">assert -1 == 1\n +  where -1 = add(0, 1)\nFull diff:\n'
            '- 1\n+ -1</pre>') in page


def test_a_sample_never_reads_the_expected_outputs_an_earlier_results_file_shows(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # A failure's diff puts expected outputs in the results file: hidden like the suite,
    # even in the weak jail (which shows this machine's files).
    monkeypatch.setenv("EVALPLUS_NG_JAIL", "weak")
    samples = tmp_path / "samples.jsonl"
    results = tmp_path / "samples.evalplus-ng.base.json"
    probe = ("    try:\n"
             f"        seen = open({str(results)!r}).read()\n"
             "    except OSError:\n"
             "        seen = ''\n"
             "    return x + y if 'where' in seen else 0\n")
    samples.write_text(json.dumps({"task_id": "HumanEval/53",
                                   "completion": "    return x - y\n"}) + "\n")
    done = CliRunner().invoke(main, ["evaluate", "--samples", str(samples), "-j", "1"])
    assert done.exit_code == 0 and "jail: weak" in done.stdout, done.output
    assert "where -1 = add(0, 1)" in results.read_text()
    samples.write_text("".join(json.dumps({"task_id": "HumanEval/53", "completion": body})
                               + "\n" for body in ("    return x - y\n", probe)))
    done = CliRunner().invoke(main, ["evaluate", "--samples", str(samples), "-j", "1",
                                     "--resume"])
    assert done.exit_code == 0, done.output
    entries = json.loads(results.read_text())["eval"]["HumanEval/53"]
    assert [e["base_status"] for e in entries] == ["fail", "fail"]
    # While samples run, the checkpoints hold verdicts and no diff (written once complete).
    from evalplus_ng.pipeline import evaluate as pipeline

    checkpoints: list[str] = []
    write = pipeline.write_json

    def kept(path: Path, document: object) -> None:
        checkpoints.append(json.dumps(document))
        write(path, document)

    monkeypatch.setattr(pipeline, "write_json", kept)
    monkeypatch.setattr(pipeline, "CHECKPOINT_SECONDS", -1.0)
    done = CliRunner().invoke(main, ["evaluate", "--samples", str(samples), "-j", "1"])
    assert done.exit_code == 0, done.output
    assert len(checkpoints) == 3 and "base_diff" not in checkpoints[0] + checkpoints[1]
    assert "base_diff" in checkpoints[2]
