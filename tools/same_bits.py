"""The same bits on every machine: what the book computes, compared across emulated CPUs.

On one x86-64 machine, three documented knobs give the numbers of other CPUs: numpy's SIMD
dispatch (``NPY_DISABLE_CPU_FEATURES``), OpenBLAS's kernel (``OPENBLAS_CORETYPE``) and the CPU
numba compiles for (``NUMBA_CPU_NAME``).  arm64 runs under qemu-user (``tools/arm64.sh``, a
Debian arm64 Python with numpy's and numba's aarch64 wheels).

    python tools/same_bits.py --probe          digests of the cheap part, as JSON (the tests compare them)
    python tools/same_bits.py --compiled       what the compiled loops' machine code holds (no fused multiply–add;
                                               with an empty CHAPTER09_BUILT), alone or after --probe
    python tools/same_bits.py --settings       the cheap part under every x86 setting: no difference
    python tools/same_bits.py --snapshot       the whole snapshot (tools/snapshot.py) under every x86 setting,
                                               page 4b trained anew under each (not read from this store)
    python tools/same_bits.py --arm64          the cheap part as arm64 under qemu, against this machine's

The cheap part is the primitives of ``chapter09.portable``, a short training of each arm of
pages 4b and 4c and of each next-symbol cell, page 07's rounding shares, page 04's row sums and
the rounding-level numbers of pages 02 and 08.  Each ends with exit status 1 and the differences,
named, when anything moves.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
import sys
import tempfile
import warnings
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # chapter09, when run as a script from a checkout

# What a CPU can look like to this machine's numpy and OpenBLAS (issue 31).
SETTINGS = {
    "default": {},
    "AVX2, FMA (Haswell, AMD Zen)": {
        "NPY_DISABLE_CPU_FEATURES": "X86_V4 AVX512_ICL AVX512_SPR",
        "OPENBLAS_CORETYPE": "Haswell",
        "NUMBA_CPU_NAME": "haswell",
    },
    "AVX without FMA (Sandy Bridge)": {"OPENBLAS_CORETYPE": "Sandybridge", "NUMBA_CPU_NAME": "sandybridge"},
    "numpy's baseline only (Prescott kernels)": {
        "NPY_DISABLE_CPU_FEATURES": "X86_V3 X86_V4 AVX512_ICL AVX512_SPR",
        "OPENBLAS_CORETYPE": "Prescott",
        "NUMBA_CPU_NAME": "generic",
    },
}


def digest(*arrays) -> str:
    """A short fingerprint of the arrays' bytes (float64, C order) and shapes."""
    import numpy as np

    h = hashlib.sha256()
    for a in arrays:
        a = np.ascontiguousarray(a, dtype=np.float64)
        h.update(str(a.shape).encode())
        h.update(a.tobytes())
    return h.hexdigest()[:16]


def probe() -> dict[str, str]:
    """The cheap part, each item a digest of its numbers' bits."""
    import numpy as np

    from chapter09 import attention, gates, linear_recurrence, lstm_gradient, portable, seq2seq
    from chapter09.language import training as language_training
    from chapter09.transformer import training as transformer_training

    rng = np.random.default_rng(31)
    x = np.concatenate([rng.uniform(-745, 709, 4000), rng.normal(0, 4, 4000), rng.uniform(-1e-3, 1e-3, 2000)])
    a, b = rng.normal(size=(3, 40, 16)), rng.normal(size=(3, 16, 24))
    out = {
        "exp": digest(portable.exp(x)),
        "log": digest(portable.log(np.abs(x) + 1e-300)),
        "tanh": digest(portable.tanh(x)),
        "sigmoid": digest(portable.sigmoid(x)),
        "matmul": digest(portable.matmul(a, b), portable.matmul(b.swapaxes(1, 2), a.swapaxes(1, 2))),
    }
    for seed, arm in enumerate(seq2seq.ARMS):  # a few dozen steps of each arm
        m = seq2seq.train(arm, 5, seed=seed, steps=30)
        out[f"training {arm}"] = digest(m.loss, *m.params.values(), [m.accuracy])
    for seed, arm in enumerate(transformer_training.ARMS):  # and of each attention-only arm (issue 43)
        m = transformer_training.train(arm, 5, seed=seed, steps=30)
        out[f"training {arm}"] = digest(m.loss, *m.params.values(), [m.accuracy])
    for seed, cell in enumerate(language_training.CELLS):  # and of each next-symbol cell (issue 44)
        m = language_training.train(cell, 3, window=language_training.LENGTH // 2, seed=seed, steps=20)
        out[f"training {cell}"] = digest(m.loss, m.theta, [m.bits])
    out["page 07 rounding shares"] = digest(gates.robustness().swiglu_gaps)
    rows = [attention.softmax(attention.alignment_scores(), t).sum(axis=1) for t in attention.TEXT_TEMPERATURES]
    out["page 04 row sums"] = digest(rows)
    out["page 02 identity gaps"] = digest(lstm_gradient.identity_gaps(0)[:2])
    c = linear_recurrence.compose(0.8, 0.3, -1.2, 0.5)
    out["page 08 residuals"] = digest([c.affine, c.tanh])
    return out


def numpy_own() -> dict[str, str]:
    """numpy's own exp and tanh and a BLAS product on the same kind of inputs: the control, which the
    settings do change (else they would not be emulating anything)."""
    import numpy as np

    rng = np.random.default_rng(31)
    x, a, b = rng.normal(0, 4, 100_000), rng.normal(size=(64, 64)), rng.normal(size=(64, 64))
    return {"numpy exp": digest(np.exp(x)), "numpy tanh": digest(np.tanh(x)), "BLAS a @ b": digest(a @ b)}


def compiled() -> dict[str, dict[str, int]]:
    """Each compiled loop of the book, compiled in this process for the CPU numba targets here (run it with
    an empty ``CHAPTER09_BUILT``: numba shows no code it loaded from its cache, and a loop loaded from it
    compiles none of the loops it calls), and what its machine code holds: fused multiply–adds (there must
    be none: they round a product and a sum once, not twice) and vector registers (the control: the loops
    do vectorise, each lane in the loop's own order)."""
    import importlib
    import pkgutil
    import re

    import numpy as np
    from numba import njit
    from numba.core import types
    from numba.core.registry import CPUDispatcher

    import chapter09
    from chapter09 import portable, seq2seq
    from chapter09.language import training as language_training
    from chapter09.seq2seq import net
    from chapter09.transformer import training as transformer_training

    @njit(error_model="numpy")
    def elementwise(x):
        out = np.empty((4, x.size))
        for i in range(x.size):
            out[0, i], out[1, i] = portable.exp1(x[i]), portable.log1(x[i])
            out[2, i], out[3, i] = portable.tanh1(x[i]), portable.sigmoid1(x[i])
        return out

    x = np.linspace(-3, 3, 50)
    elementwise(x)
    (
        seq2seq.train("attention", 4, steps=1),
        seq2seq.train("bottleneck", 4, steps=1),
        transformer_training.train("transformer", 4, steps=1),
        *(language_training.train(cell, 3, steps=1) for cell in language_training.CELLS),
        portable.matmul(x[None], x[:, None]),
    )
    strings = np.zeros((2, 4), np.int8)  # the loops a training calls, compiled on their own too
    net.gradient(np.zeros(net.SIZE), True, strings, strings, strings, np.ones((2, 4)), np.empty(net.SIZE),
                 np.empty((2, 4, net.G)))  # fmt: skip
    kernels = {"elementwise": elementwise}
    for module in pkgutil.walk_packages(chapter09.__path__, "chapter09."):  # every compiled loop of the package
        for name, kernel in vars(importlib.import_module(module.name)).items():
            arrays = any(
                isinstance(a, types.Array) for signature in getattr(kernel, "signatures", ()) for a in signature
            )
            if isinstance(kernel, CPUDispatcher) and arrays and kernel not in kernels.values():  # loops, once each
                kernels[name if name not in kernels else f"{module.name.partition('.')[2]}.{name}"] = kernel
    out = {}
    for name, kernel in kernels.items():
        with warnings.catch_warnings():
            warnings.simplefilter("error")  # numba's "Inspection disabled for cached code": none for a loaded loop
            try:
                asm = "\n".join(kernel.inspect_asm(signature) for signature in kernel.signatures)
            except UserWarning as unread:
                raise SystemExit(f"{name}: loaded from numba's cache: use an empty CHAPTER09_BUILT") from unread
        out[name] = {"fma": len(re.findall(r"\bvfn?m(?:add|sub)\w*", asm)), "vector": len(re.findall(r"\b[yz]mm", asm))}
    return out


def machine() -> dict[str, str]:
    """Where this process computes: numpy and OpenBLAS versions, SIMD features in use, BLAS kernel."""
    import numpy as np
    from numpy._core import _multiarray_umath as umath  # what numpy.show_runtime() prints, as data
    from threadpoolctl import threadpool_info

    used = [f for f in [*umath.__cpu_baseline__, *umath.__cpu_dispatch__] if umath.__cpu_features__.get(f)]
    blas = next((i for i in threadpool_info() if i["user_api"] == "blas"), {})
    import numba

    return {
        "numpy": np.__version__,
        "numba": f"{numba.__version__} for {numba.config.CPU_NAME or 'this CPU'}",
        "blas": f"{blas.get('internal_api', '?')} {blas.get('version', '?')}",
        "blas kernel": str(blas.get("architecture", "?")),
        "cpu features": " ".join(used),
        "machine": os.uname().machine,
    }


def run(args: list[str], env: dict, python: list[str] | None = None) -> subprocess.CompletedProcess:
    return subprocess.run(
        [*(python or [sys.executable]), *args],
        env={**os.environ, **env},
        capture_output=True,
        text=True,
        check=False,
        cwd=ROOT,
    )


def probe_under(env: dict, python: list[str] | None = None, compiled: bool = False) -> dict:
    result = run([str(Path(__file__)), "--probe", *(["--compiled"] if compiled else [])], env, python)
    if result.returncode:
        raise SystemExit(f"the probe failed under {env or 'the default setting'}:\n{result.stderr[-2000:]}")
    return json.loads(result.stdout)


def compare(reference: dict, other: dict, where: str) -> list[str]:
    return [
        f"{where}: {key} differs ({reference['digests'][key]} here, {other['digests'].get(key)} there)"
        for key in reference["digests"]
        if other["digests"].get(key) != reference["digests"][key]
    ]


def main(argv: list[str]) -> int:
    if "--probe" in argv or "--compiled" in argv:
        found = {"machine": machine(), "digests": probe(), "numpy": numpy_own()} if "--probe" in argv else {}
        print(json.dumps(found | ({"compiled": compiled()} if "--compiled" in argv else {})))
        return 0
    if "--settings" in argv:
        base = probe_under({})
        lines = [line for name, env in SETTINGS.items() if env for line in compare(base, probe_under(env), name)]
    elif "--snapshot" in argv:  # the default setting is make test's (tests/test_snapshot.py)
        # each setting trains page 4b anew, in a folder of its own (common.built_dir): never from this machine's store
        built = Path(tempfile.mkdtemp(prefix="chapter09-same-bits-"))
        others = {name: {**env, "CHAPTER09_BUILT": str(built / name)} for name, env in SETTINGS.items() if env}
        with ThreadPoolExecutor(os.cpu_count()) as pool:  # one process per setting, as many as cores
            results = dict(
                zip(others, pool.map(lambda env: run([str(ROOT / "tools" / "snapshot.py")], env), others.values()))
            )
        shutil.rmtree(built, ignore_errors=True)
        lines = [f"{name}:\n{r.stdout}{r.stderr[-2000:]}" for name, r in results.items() if r.returncode]
    elif "--arm64" in argv:
        home = Path(os.environ.get("ARM64_HOME", Path.home() / ".cache" / "chapter09-arm64"))
        import llvmlite
        import numba
        import numpy
        import threadpoolctl

        versions = (  # this machine's
            f"numpy=={numpy.__version__} threadpoolctl=={threadpoolctl.__version__} "
            f"numba=={numba.__version__} llvmlite=={llvmlite.__version__}"
        )
        env = {**os.environ, "NUMPY": numpy.__version__, "ARM64_PACKAGES": versions}
        setup = subprocess.run(["bash", str(ROOT / "tools" / "arm64.sh"), str(home)], check=False, env=env)
        if setup.returncode:
            return setup.returncode
        base, arm = probe_under({}), probe_under({"PYTHONPATH": str(ROOT)}, [str(home / "run-arm64.sh")])
        lines = compare(base, arm, f"arm64 ({arm['machine']['blas kernel']})")
    else:
        print(__doc__)
        return 2
    print("\n".join(lines) or "the same bits under every setting")
    return 1 if lines else 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
