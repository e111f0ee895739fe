"""Coverage-guided fuzzing of the model linter's loader: random bytes written to a temp .onnx.

    python fuzz/fuzz_lint.py --make-seeds /tmp/corpus-onnx         # a few valid models to mutate
    python fuzz/fuzz_lint.py /tmp/corpus-onnx -max_total_time=60 -rss_limit_mb=4096

Any file must give a LintReport or a LintError; anything else is a finding. Skips (exit 0, one
line) when the `lint` extra (onnx) is not installed. Needs atheris; see fuzz/README.md.
"""

from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

_IGNORE = [part for part in os.environ.get("FUZZ_IGNORE", "").split("|") if part]
"""Exception texts to let pass (FUZZ_IGNORE="a|b"): keep fuzzing past a bug already reported."""


def _known(exc: BaseException) -> bool:
    text = f"{type(exc).__name__}: {exc}"
    return any(part in text for part in _IGNORE)

_DIR = tempfile.mkdtemp(prefix="trt-why-fuzz-lint-")
_PATH = os.path.join(_DIR, "model.onnx")


def test_one_input(data: bytes) -> None:
    from troubleshooter.errors import LintError
    from troubleshooter.lint import lint_path
    from troubleshooter.lint.report import LintReport

    with open(_PATH, "wb") as fh:
        fh.write(data)
    try:
        report = lint_path(_PATH)
        if not isinstance(report, LintReport):
            raise AssertionError(f"lint_path returned {type(report).__name__}")
        report.model_dump_json()  # every report serialises (--format json)
    except LintError as exc:
        if "\n" in str(exc):
            raise AssertionError(f"a LintError must be one line: {exc!r}") from None
    except Exception as exc:
        if not _known(exc):
            raise


def make_seeds(folder: str) -> None:
    """A few small valid models (Conv, Q/DQ, dynamic shapes, a custom op) for the fuzzer to mutate."""
    import numpy as np
    import onnx
    from onnx import TensorProto, helper, numpy_helper

    out = Path(folder)
    out.mkdir(parents=True, exist_ok=True)
    x = helper.make_tensor_value_info("x", TensorProto.FLOAT, ["N", 3, 8, 8])
    y = helper.make_tensor_value_info("y", TensorProto.FLOAT, None)
    w = numpy_helper.from_array(np.ones((4, 3, 3, 3), np.float32), "w")
    scale = numpy_helper.from_array(np.array(0.1, np.float32), "s")
    zp = numpy_helper.from_array(np.array(0, np.int8), "zp")
    graphs = {
        "conv": helper.make_graph([helper.make_node("Conv", ["x", "w"], ["y"], name="/conv/Conv")], "g", [x], [y], [w]),
        "qdq": helper.make_graph([
            helper.make_node("QuantizeLinear", ["x", "s", "zp"], ["q"], name="/q"),
            helper.make_node("DequantizeLinear", ["q", "s", "zp"], ["dq"], name="/dq"),
            helper.make_node("Conv", ["dq", "w"], ["y"], name="/conv/Conv", group=1),
        ], "g", [x], [y], [w, scale, zp]),
        "custom": helper.make_graph([helper.make_node("MyPlugin", ["x"], ["y"], name="/p", domain="my.domain")],
                                    "g", [x], [y]),
    }
    for name, graph in graphs.items():
        model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17), helper.make_opsetid("my.domain", 1)])
        onnx.save(model, str(out / f"{name}.onnx"))
    print(f"wrote {len(graphs)} seed models to {out}")


def main() -> None:
    try:
        import onnx  # noqa: F401
    except ImportError:
        print("fuzz_lint: onnx is not installed (pip install 'trt-why[lint]'); nothing to fuzz")
        return
    if len(sys.argv) > 2 and sys.argv[1] == "--make-seeds":
        make_seeds(sys.argv[2])
        return
    import atheris

    with atheris.instrument_imports(include=["troubleshooter"]):
        import troubleshooter.lint.engine
        import troubleshooter.lint.model  # noqa: F401
    atheris.Setup(sys.argv, test_one_input)
    atheris.Fuzz()


if __name__ == "__main__":
    main()
