"""core/advice.py: which fix steps a user sees, for their release, platform and stack."""

from __future__ import annotations

import pytest

from troubleshooter.core.advice import fixes_for, releases_label
from troubleshooter.kb.schema import Entry
from troubleshooter.models import Environment


def _entry(entry_id: str, title: str, fixes: list[dict[str, object]]) -> Entry:
    """A one-signature entry whose fixes are the ones under test."""
    return Entry.model_validate({
        "id": entry_id, "title": title, "severity": "error",
        "match": {"signatures": [{"id": "s", "regex": "boom", "role": "trigger", "literals": ["boom"]}]},
        "causes": [{"text": "x", "certainty": "suggestion"}],
        "references": [{"url": "https://example.org"}], "last_verified": "2026-11-27",
        "examples": {"match": [{"name": "m", "log": "boom"}], "no_match": [{"name": "n", "log": "calm"}]},
        "fixes": fixes,
    })


ENTRY = _entry("gated-steps", "An entry whose steps are gated", [
    {"title": "Check the plan", "steps": [
        {"text": "Ask trtexec", "code": "trtexec --loadEngine=a.engine --getPlanVersionOnly", "lang": "bash",
         "versions": ">=10"},
        {"text": "Find the library", "code": "ldd libx.so", "lang": "bash", "platforms": ["linux", "jetson"]},
        {"text": "Find the DLL", "code": "where nvinfer_10.dll", "lang": "bat", "platforms": ["windows"]},
        {"text": "Rebuild in the Triton image", "code": "docker run ...", "lang": "bash", "front_ends": ["triton"]},
    ]},
])


def texts(env: Environment) -> list[str]:
    return [s.text for fx in fixes_for(ENTRY, env, {}) for s in fx.detail]


def test_known_release_and_platform_see_only_their_steps_unlabelled() -> None:
    got = texts(Environment(tensorrt_version="8.6.1", platform="windows"))
    assert got == ["Find the DLL"]
    got = texts(Environment(tensorrt_version="10.3.0", platform="linux"))
    assert got == ["Ask trtexec", "Find the library"]


def test_unknown_release_and_platform_label_whom_each_step_is_for() -> None:
    got = texts(Environment())
    assert got == ["(TensorRT 10+) Ask trtexec", "(Linux / Jetson) Find the library", "(Windows) Find the DLL"]


def test_a_stack_step_only_for_that_stack() -> None:
    assert "Rebuild in the Triton image" in texts(Environment(front_end="triton", platform="linux"))
    assert "Rebuild in the Triton image" not in texts(Environment(front_end="trtexec", platform="linux"))


@pytest.mark.parametrize(("spec", "said"), [
    (">=10", "TensorRT 10+"), ("<10", "TensorRT before 10"), (">=8.4,<11", "TensorRT 8.4 to 10.x"),
    (">=8.5,<9.2", "TensorRT 8.5 to <9.2"), ("==8.6.1", "TensorRT 8.6.1"),
])
def test_release_ranges_read_as_a_person_says_them(spec: str, said: str) -> None:
    assert releases_label(spec) == said


@pytest.mark.parametrize(("lang", "value", "expected"), [
    ("bash", "my node;rm -rf /", "'my node;rm -rf /'"),
    ("powershell", "it's $(evil)", "'it''s $(evil)'"),
    ("bat", 'a & del "x" %PATH%', '"a & del x %%PATH%%"'),
    ("powershell", "/model.2/Conv", "/model.2/Conv"),
])
def test_captured_values_are_quoted_for_the_shell_of_the_step(lang: str, value: str, expected: str) -> None:
    from troubleshooter.core.advice import fill

    assert fill("run {node}", {"node": value}, lang) == f"run {expected}"


def test_an_optional_part_of_prose_is_said_only_when_the_log_gave_its_values() -> None:
    from troubleshooter.core.advice import MISSING, fill

    text = "The importer[[ for `{op}`]][[ (node {node_number})]] failed[[: `{assertion}`]]."
    assert fill(text, {"op": "TopK", "node_number": "7", "assertion": MISSING}) == "The importer for `TopK` (node 7) failed."
    assert fill(text, {"op": MISSING, "node_number": MISSING, "assertion": MISSING}) == "The importer failed."
    # code keeps `[[` (bash's test syntax) and shows what the log lacks as a <placeholder>
    assert fill("[[ -f {engine} ]] && rm {engine}", {"engine": MISSING}, "bash") == "[[ -f <engine> ]] && rm <engine>"


def test_an_unknown_release_in_a_command_is_a_placeholder_and_in_prose_is_said() -> None:
    from troubleshooter.core.advice import fill, template_values

    vals = template_values({}, Environment())
    assert fill('pip install "tensorrt=={tensorrt_version}.*"', vals, "bash") == 'pip install "tensorrt==<tensorrt_version>.*"'
    assert fill("On TensorRT {tensorrt_version} this fails.", vals) == "On your TensorRT this fails."


def test_a_c_plus_plus_program_gets_no_python_snippet_and_a_python_one_no_cpp() -> None:
    """CaoWGG/TensorRT-CenterNet#23 (first-sight batch 7, its real line): a C++ demo's own source in its CUDA error
    line; a Python form of the same error (a traceback, written for this test) keeps the Python snippet and loses
    the C++ one."""
    from troubleshooter import diagnose

    cpp = CENTERNET_23 + "\n"
    report = diagnose(cpp)
    assert report.environment.language == "cpp"
    langs = [s.command.lang for f in report.diagnoses[0].fixes for s in f.detail if s.command]
    assert "python" not in langs
    py = ("Traceback (most recent call last):\n  File \"infer.py\", line 40, in <module>\n"
          "pycuda._driver.LogicError: cuMemcpyDtoH failed: an illegal memory access was encountered\n")
    report = diagnose(py)
    assert report.environment.language == "python"
    langs = [s.command.lang for f in report.diagnoses[0].fixes for s in f.detail if s.command]
    assert "cpp" not in langs and "python" in langs


def test_tensorrts_own_sources_do_not_make_a_log_cpp() -> None:
    from troubleshooter import diagnose

    line = ("[E] [TRT] ModelImporter.cpp:720: While parsing node number 5 [Pad]:\n"
            "ERROR: builtin_op_importers.cpp:2984 In function importPad:\n"
            "[8] Assertion failed: inputs.at(1).is_weights()\n")
    assert diagnose(line).environment.language is None



def test_paddles_own_report_says_no_language_so_both_forms_are_shown() -> None:
    """PaddleSeg#1729 (first-sight batch 15, its real lines): Paddle prints its "C++ Traceback" and an
    "InvalidArgumentError: ... (at ../paddle/fluid/...h:100)" summary for a Python program and a C++ demo alike -
    neither makes the program Python (the reporter ran PaddleSeg's C++ demo) or C++."""
    from troubleshooter import diagnose

    log = ("--------------------------------------\nC++ Traceback (most recent call last):\n"
           "--------------------------------------\nNot support stack backtrace yet.\n\n"
           "----------------------\nError Message Summary:\n----------------------\n"
           "InvalidArgumentError: The input [x] shape of trt subgraph is [-1,3,-1,-1], please enable trt dynamic_shape "
           "mode by SetTRTDynamicShapeInfo. (at ..\\paddle/fluid/inference/tensorrt/engine.h:100)\n")
    report = diagnose(log)
    assert report.environment.language is None
    langs = {s.command.lang for f in report.diagnoses[0].fixes for s in f.detail if s.command}
    assert {"python", "cpp"} <= langs


CENTERNET_23 = "CUDA error 700 at /var/host_share/TensorRT-CenterNet/src/ctdetNet.cpp:163runDet: /var/host_share/TensorRT-CenterNet/src/ctdetNet.cpp:163: void ctdet::ctdetNet::doInference(const void*, void*): Assertion `0' failed."


def test_a_newer_release_is_bounded_by_the_logs_own_date() -> None:
    """First-sight batches 6-8 (NeMo#3872, TensorRT#917, pointpillars_pytorch_trt#9): 'build with 8.6 or 10.x' shown to
    a log written before either existed. The step keeps today's advice and adds the newest release out by then; an
    undated log gets no such part. (Lines written in TensorRT 7.2's trtexec shape.)"""
    from troubleshooter import diagnose

    body = ("[E] [TRT] ModelImporter.cpp:720: While parsing node number 5 [Pad]:\n"
            "[E] [TRT] ERROR: builtin_op_importers.cpp:2984 In function importPad:\n[8] Assertion failed: axis >= 0\n")
    head = "&&&& RUNNING TensorRT.trtexec [TensorRT v7201] # trtexec --onnx=m.onnx\n"
    dated = head + body.replace("[E] [TRT]", "[07/24/2021-10:00:00] [E] [TRT]")

    def steps(log: str) -> str:
        return " ".join(st for d in diagnose(log).diagnoses for f in d.fixes for st in f.steps)

    assert "by the log's own date, TensorRT 8.2 at most" in steps(dated)
    assert "by the log's own date" not in steps(head + body) and "8.6 or 10.x today" in steps(head + body)


def test_a_step_for_the_tool_that_wrote_the_onnx_shows_only_when_the_log_names_it() -> None:
    """Batch 12's judge: the exporter decided the fix on five parser logs and no report named it (`producers:`).
    Written in trtexec's shape (its model header, then a parser assertion)."""
    from troubleshooter import diagnose

    assertion = ("ERROR: ModelImporter.cpp:92 In function parseGraph:\n"
                 "[5] Assertion failed: tensors.count(input_name)\n")
    for producer, word in (("tf2onnx", "tf2onnx.convert"), ("keras2onnx", "from_keras"), ("pytorch", None)):
        report = diagnose(f"[I] Producer name:           {producer}\n{assertion}")
        steps = " ".join(step for fix in report.diagnoses[0].fixes for step in fix.steps)
        assert report.diagnoses[0].id == "onnx-parser-assertion"
        if word is None:
            assert "tf2onnx.convert" not in steps and "from_keras" not in steps
        else:
            assert word in steps


def test_a_step_for_only_some_possible_platforms_comes_after_the_one_for_all() -> None:
    """tensorflow/serving#1914 (first-sight batch 19): a TF Serving image on x86 whose Linux paths could also be a
    Jetson's; the CUDA-library step that fits both comes before the Jetson container-runtime step."""
    from pathlib import Path

    from troubleshooter import diagnose

    log = Path(__file__).resolve().parents[2] / "sample_logs" / "first-sight" / "batch-19" / "u-tf-serving-1914.log"
    report = diagnose(log.read_text(encoding="utf-8"))
    assert report.environment.platform == "linux" and "jetson" in report.environment.platform_alternatives
    first_fix = report.diagnoses[0].fixes[0]
    assert not first_fix.detail[0].text.startswith("(Jetson)")
    assert any(step.text.startswith("(Jetson)") for step in first_fix.detail[1:])


def test_a_tensorrt_9_engine_is_offered_the_tensorrt_llm_rebuild_first() -> None:
    """triton-inference-server/tensorrtllm_backend#194 (first-sight batch 19): a TensorRT 9.2 plan refused by 9.2.0.5;
    TensorRT 9.x came mostly through TensorRT-LLM, so its rebuild (trtllm-build) comes before trtexec's, said as an
    'if'; a TensorRT 8 plan never gets it."""
    from troubleshooter import diagnose

    line = ("The engine plan file is not compatible with this version of TensorRT, expecting library version 9.2.0.4 got "
            "9.2.0.5, please rebuild\n")
    fixes = diagnose(line).diagnoses[0].fixes
    assert "trtllm-build" in fixes[0].steps[0] and "If this engine came from trtllm-build" in fixes[0].steps[0]
    older = line.replace("9.2.0.4", "8.6.1.6").replace("9.2.0.5", "8.6.1.2")
    assert not any("trtllm-build" in step for fix in diagnose(older).diagnoses[0].fixes for step in fix.steps)


STACK_ENTRY = _entry("stack-gated", "An entry with steps for some releases of a stack's package", [
    {"title": "Load CUDA for the provider", "steps": [
        {"text": "Preload", "code": "python -c 'import onnxruntime as ort; ort.preload_dlls()'", "lang": "bash",
         "stack_versions": {"onnxruntime": ">=1.21"}},
        {"text": "Use the path", "code": "export LD_LIBRARY_PATH=/usr/local/cuda/lib64", "lang": "bash",
         "stack_versions": {"onnxruntime": "<1.21"}},
        {"text": "One build only", "code": "pip uninstall -y onnxruntime", "lang": "bash"},
    ]},
])


def stack_texts(env: Environment) -> list[str]:
    return [s.text for fx in fixes_for(STACK_ENTRY, env, {}) for s in fx.detail]


def test_a_step_for_some_releases_of_a_stack_package_fits_the_release_the_log_prints() -> None:
    assert stack_texts(Environment(stack_versions={"onnxruntime": "1.18.1"})) == ["Use the path", "One build only"]
    assert stack_texts(Environment(stack_versions={"onnxruntime": "1.22.0"})) == ["Preload", "One build only"]
    # another stack's version says nothing of this one
    assert stack_texts(Environment(stack_versions={"tensorrt-llm": "0.9.0"}))[:2] == [
        "(onnxruntime 1.21+) Preload", "(onnxruntime before 1.21) Use the path"]


def test_the_onnxruntime_release_a_pip_listing_prints_picks_the_provider_step() -> None:
    from troubleshooter import diagnose

    # written, in the shape of the real line of ZHO-ZHO-ZHO/ComfyUI-InstantID#48 (kb/library-load-failure.yaml)
    line = ('2024-07-01 10:00:00.1 [E:onnxruntime:Default, provider_bridge_ort.cc:1745 onnxruntime::TryGetProviderInfo_CUDA]'
            ' D:\\a\\_work\\1\\s\\onnxruntime\\core\\session\\provider_bridge_ort.cc:1426 onnxruntime::ProviderLibrary::Get '
            '[ONNXRuntimeError] : 1 : FAIL : LoadLibrary failed with error 126 "" when trying to load '
            '"C:\\ComfyUI\\python_embeded\\Lib\\site-packages\\onnxruntime\\capi\\onnxruntime_providers_cuda.dll"')
    old = diagnose("onnxruntime-gpu          1.17.1\n" + line)
    new = diagnose("onnxruntime-gpu          1.22.0\n" + line)
    old_code = "\n".join(s.command.code for fx in old.diagnoses[0].fixes for s in fx.detail if s.command)
    new_code = "\n".join(s.command.code for fx in new.diagnoses[0].fixes for s in fx.detail if s.command)
    assert old.diagnoses[0].id == new.diagnoses[0].id == "library-load-failure"
    assert "preload_dlls" not in old_code and "$env:PATH" in old_code
    assert "preload_dlls" in new_code and "$env:PATH" not in new_code


def test_a_trigger_whose_requires_are_unmet_lends_nothing_to_the_report() -> None:
    """python-package-missing's `stack-dependency-missing` matches any "No module named 'x'" but counts only beside a
    TensorRT-stack package's frame: beside a ComfyUI plugin's frame (Comfy-Org/ComfyUI#4938, first-sight batch 30) its
    cause and its "Install what <stack_package> imports" fix are not the report's; the plugin's are."""
    from pathlib import Path

    from troubleshooter import diagnose_path

    log = Path(__file__).resolve().parents[2] / "sample_logs/first-sight/batch-30/g30f-c-ComfyUI-4938.log"
    top = diagnose_path(log).diagnoses[0]
    assert top.id == "python-package-missing"
    titles = [f.title for f in top.fixes]
    assert titles[0] == "Install the plugin's requirements into the app's own Python"
    assert not any("stack_package" in t or "imports, into the same Python" in t for t in titles)
    assert "ComfyUI_IPAdapter_plus" in top.causes[0] and "<" not in top.causes[0].split(":")[0]


def test_a_trtexec_command_says_so_when_the_log_ran_another_builder() -> None:
    # real (grimoire/mmdetection-to-tensorrt#7, first-sight batch 37): a Python program (mmdet2trt) built the engine;
    # the profile fix's trtexec command is trtexec's form of the step, and says so
    from pathlib import Path

    from troubleshooter import diagnose

    log = (Path(__file__).parents[2] / "sample_logs/first-sight/batch-37/g37A-c-mmdet2trt-7.log").read_text()
    steps = [s for f in diagnose(log).diagnoses[0].fixes for s in f.detail]
    by_trtexec = [s for s in steps if s.command is not None and s.command.code.startswith("trtexec")]
    assert by_trtexec and all("trtexec" in s.text for s in by_trtexec)
    assert any(s.text.startswith("(trtexec) ") for s in by_trtexec)
    # a trtexec log: its own tool, no label
    own = diagnose("[03/01/2023-10:00:00] [E] Error[3]: [executionContext.cpp::setInputShape::2037] Error Code 3: API "
                   "Usage Error (Parameter check failed at: runtime/api/executionContext.cpp::setInputShape::2037, "
                   "condition: satisfyProfile Runtime dimension does not satisfy any optimization profile.)\n"
                   "&&&& FAILED TensorRT.trtexec [TensorRT v8601] # trtexec --onnx=m.onnx\n")
    assert not any(s.text.startswith("(trtexec") for f in own.diagnoses[0].fixes for s in f.detail)


def test_comfyui_desktop_gets_its_terminal_not_the_portable_python() -> None:
    # real (Gourieff/ComfyUI-ReActor#32, first-sight batch 37): ComfyUI Desktop (the Electron app's resources\ComfyUI
    # in the frames) was told to use the portable build's python_embeded first
    from pathlib import Path

    from troubleshooter import diagnose

    log = (Path(__file__).parents[2] / "sample_logs/first-sight/batch-37/g37B-c-reactor2-32.log").read_text()
    fixes = diagnose(log).diagnoses[0].fixes
    first = fixes[0].detail[0]
    assert first.text.startswith("ComfyUI Desktop") and first.command is not None
    assert "custom_nodes\\ComfyUI_TensorRT\\requirements.txt" in first.command.code
    assert not any("python_embeded" in (s.command.code if s.command else "") for f in fixes for s in f.detail)
