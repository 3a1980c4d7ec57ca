"""littlestone opt --proof and verify on upper-bound certificates."""

import json

from adversary.cli import main


def run(argv, capsys):
    code = main(argv)
    out, err = capsys.readouterr()
    return code, out, err


def test_proof_written_and_verified(tmp_path, capsys):
    proof = tmp_path / "proof.json"
    code, out, err = run(["opt", "intervals", "N=60", "--proof", str(proof), "--quiet"], capsys)
    assert code == 0 and "certificate of Opt(C) <= 10" in out
    code, out, err = run(["verify", str(proof), "intervals", "N=60"], capsys)
    assert code == 0 and out.startswith("OK: upper-bound certificate verified") and "Opt(C) <= 10" in out


def test_tampered_proof_fails_in_one_line(tmp_path, capsys):
    proof = tmp_path / "proof.json"
    assert run(["opt", "intervals", "N=100", "--proof", str(proof), "--quiet"], capsys)[0] == 0
    data = json.loads(proof.read_text())
    data["bound"] = 10
    for e in data["entries"]:
        e["bound"] = max(0, e["bound"] - 1)
    proof.write_text(json.dumps(data))
    code, out, err = run(["verify", str(proof), "intervals", "N=100"], capsys)
    assert code == 1 and out.startswith("FAILED:") and len(out.strip().splitlines()) == 1


def test_proof_json_key_and_bad_extension(tmp_path, capsys):
    proof = tmp_path / "p.json"
    code, out, err = run(["opt", "thresholds", "N=7", "--json", "--quiet", "--proof", str(proof)], capsys)
    assert code == 0 and json.loads(out)["proof"] == str(proof)
    code, out, err = run(["opt", "thresholds", "N=7", "--proof", str(tmp_path / "p.txt")], capsys)
    assert code == 2 and err.startswith("littlestone: error:") and "Traceback" not in err
