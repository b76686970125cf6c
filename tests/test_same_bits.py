"""The book's numbers are the same on every machine: the cheap part (``tools/same_bits.py``) computed
in subprocesses under the x86 settings this machine can emulate, bit for bit.  CI adds the whole
snapshot under the same settings and the cheap part as arm64 under qemu (``.ci/run``)."""

import json
import shutil
from concurrent.futures import ThreadPoolExecutor

import pytest

import same_bits  # tools/same_bits.py (conftest puts tools/ on the path)
from conftest import once


# Four subprocesses, each compiling the book's loops for its own CPU (cold on a new copy, slower on a
# busy machine): a hang guard that is not a timing target; and make test's, not make test-fast's.
def subprocesses(test):
    return pytest.mark.slow(pytest.mark.timeout(900)(test))


HASWELL = "AVX2, FMA (Haswell, AMD Zen)"  # a CPU with fused multiply–add


@pytest.fixture
def probes(tmp_path_factory, worker_id) -> dict[str, dict]:
    """The cheap part under every setting, once per run; under Haswell's, compiled from nothing (an empty
    CHAPTER09_BUILT) and its machine code read in the same process (``--compiled``)."""

    def make(folder):
        def probe(name):
            fresh = {"CHAPTER09_BUILT": str(folder / "built")} if name == HASWELL else {}
            return same_bits.probe_under(same_bits.SETTINGS[name] | fresh, compiled=bool(fresh))

        with ThreadPoolExecutor(2) as pool:  # two at once: the other worker may be waiting for them
            found = dict(zip(same_bits.SETTINGS, pool.map(probe, same_bits.SETTINGS)))
        shutil.rmtree(folder / "built", ignore_errors=True)
        (folder / "probes.json").write_text(json.dumps(found), encoding="utf-8")

    return json.loads((once(tmp_path_factory, worker_id, "probes", make) / "probes.json").read_text(encoding="utf-8"))


@subprocesses
def test_every_setting_gives_the_same_bits(probes):
    base = probes["default"]
    lines = [line for name, p in probes.items() for line in same_bits.compare(base, p, name)]
    assert not lines, "\n".join(lines)
    assert len(base["digests"]) >= 14  # primitives, five trainings, four pages' numbers
    assert {"training transformer", "training no-positions"} <= set(base["digests"])
    assert {"training rnn", "training gru", "training lstm"} <= set(base["digests"])


@subprocesses
def test_the_settings_emulate_other_cpus(probes):
    """The control: numpy's own exp and tanh and a BLAS product do change under the settings (else they
    would emulate nothing), and each process reports the kernel it really ran."""
    controls = {json.dumps(p["numpy"], sort_keys=True) for p in probes.values()}
    kernels = {p["machine"]["blas kernel"] for p in probes.values()}
    if len(kernels) == 1:
        pytest.skip(f"this OpenBLAS runs one kernel whatever OPENBLAS_CORETYPE says: {kernels}")
    assert len(controls) > 1, "no setting changed numpy's own functions: nothing was emulated"
    baseline = probes["numpy's baseline only (Prescott kernels)"]["machine"]
    if baseline["machine"] == "x86_64":
        assert baseline["cpu features"] == "X86_V2"  # numpy's x86-64 baseline: nothing dispatched above it


def test_a_difference_is_named():
    base = {"digests": {"exp": "a", "training attention": "b"}}
    other = {"digests": {"exp": "a", "training attention": "c"}}
    assert same_bits.compare(base, other, "arm64") == ["arm64: training attention differs (b here, c there)"]


@subprocesses
def test_no_compiled_loop_fuses_a_product_and_a_sum(probes):
    """Compiled for a CPU with fused multiply–add (Haswell's AVX2 and FMA), the book's loops hold none:
    numba without fastmath rounds a·b and then a·b + c, as written and as every other CPU does."""
    counts = probes[HASWELL]["compiled"]
    assert {"products", "gradient", "train_steps", "predict"} <= set(counts)
    assert {"encode", "decode", "transformer.net.backward", "adam", "attend", "norm_back"} <= set(counts)
    # the next-symbol cells' loops (issue 44): theirs come first (language < seq2seq), so page 4b's get their
    # module's name only if the language's own forward and backward were compiled and read
    assert {"seq2seq.net.forward", "seq2seq.net.backward"} <= set(counts)
    assert {name: c["fma"] for name, c in counts.items()} == dict.fromkeys(counts, 0)
    assert all(c["vector"] > 0 for c in counts.values()), counts  # the control: AVX code was generated
