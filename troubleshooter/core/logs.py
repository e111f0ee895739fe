"""One log line: strip colour codes and wrappers, read the severity, keep the payload.

Front-ends wrap TensorRT's message in different ways; the payload (what TensorRT printed) is
what signatures match. Recognised: trtexec ``[date] [E] [TRT]``, Python ``[TRT] [E]``, TRT 7
``[TensorRT] ERROR:``, ``ERROR: [TRT]:``, Polygraphy ``[!]``, glog / Triton ``E0305 12:00:00.1 ...]``,
ONNX Runtime ``[W:onnxruntime:...]`` (its inner ``[date ERROR]`` wins: outer tags lie),
docker-compose ``svc-1 | ``, Torch-TensorRT, Python logging and tracebacks.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable
from typing import TYPE_CHECKING, Literal

from troubleshooter.core.limits import MAX_LINE_CHARS
from troubleshooter.models import Level, LogLine, Origin
from troubleshooter.re_programs import re_compile

if TYPE_CHECKING:
    from troubleshooter.kb.schema import LineLevel

# CSI (7- and 8-bit), OSC / DCS / APC strings up to BEL or ST, charset selection, other two-byte escapes.
_ANSI = re_compile(
    r"(?:\x1b\[|\x9b)[0-9;:?<=>]*[ -/]*[@-~]"
    r"|(?:\x1b[\]PX^_]|[\x90\x9d\x9e\x9f])[^\x07\x1b\x9c]*(?:\x07|\x1b\\|\x9c)?"
    r"|\x1b[()*+\-./][ -~]?"
    r"|\x1b[ -~]?"
)
# Whatever control characters remain (BEL, backspace, NUL, C1) must never reach a terminal or a chat.
_CONTROL = re_compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")

_LEVELS_BY_WORD = {
    "INTERNAL_ERROR": Level.FATAL, "ERROR": Level.ERROR, "WARNING": Level.WARNING, "WARN": Level.WARNING,
    "INFO": Level.INFO, "VERBOSE": Level.VERBOSE, "DEBUG": Level.VERBOSE, "CRITICAL": Level.FATAL,
    "FATAL": Level.FATAL,
}
"""The level words loggers print, upper-case, longest first where one starts another (WARNING, WARN):
the one table that the level alternations below are made from."""
_LEVEL_WORDS = {
    **_LEVELS_BY_WORD, "GRAPH": Level.VERBOSE,
    "E": Level.ERROR, "F": Level.FATAL, "W": Level.WARNING, "I": Level.INFO, "V": Level.VERBOSE, "D": Level.VERBOSE,
    "!": Level.ERROR,
}
"""Every level a prefix can carry (letters of `[E]`, glog's `E0305`), read upper-cased."""

_LVL = "(?P<lvl>" + "|".join(_LEVELS_BY_WORD) + ")"
_PLAIN_WORDS = [w for w in _LEVELS_BY_WORD if "_" not in w]
"""The level words an application prints on its own (not TensorRT's INTERNAL_ERROR)."""
_LVL_ANY_CASE = "|".join(f"{w}|{w.title()}|{w.lower()}" for w in _PLAIN_WORDS)
"""A level word as applications print it: ERROR, Error, error, ..."""

# Each rule: (regex source, anchored at the start of what is left, origin or None, whether the level it reads
# overrides one read before). Applied repeatedly until none matches. A rule's one named group is `lvl`, the
# level it reads; it is matched in place (tests/core/test_logs.py checks that none looks behind its start or
# can match nothing).
_RuleOrigin = Origin | Literal["trt"]
"""What a rule says of the origin ("trt": TensorRT's own tag, trtexec's or the Python API's, told apart at the end)."""

_RULES: list[tuple[str, _RuleOrigin | None, bool]] = [
    # AUTOMATIC1111's web UI: "*** " before the lines of a failure it reports ("*** Error running install.py ...",
    # "*** stderr: Traceback ...", "***     from x import y", "*** ModuleNotFoundError: ...")
    (r"\*\*\* (?:stderr: |stdout: )?(?=Error (?:running|loading|calling|executing|completing) |Traceback \(|\s{0,6}File \""
     r"|\s{2,}\S|[A-Za-z_][\w.]*(?:Error|Exception): )", None, False),
    # a runner that prints a child's streams under labels (A1111's extension installer: "stderr: Traceback (most recent
    # call last):"), before a traceback or an exception line
    (r"(?:stderr|stdout|STDERR|STDOUT): (?=Traceback \(|\s{0,6}File \"|[A-Za-z_][\w.]*(?:Error|Exception): )", None, False),
    # docker-compose: "trt-1  | ..." / "trt_1 | ..."
    # (the numeric suffix keeps tables such as Polygraphy's "Flags  | [FP16]" intact)
    (r"[A-Za-z0-9][\w.-]{0,62}[-_]\d+\s+\|\s?(?=\S)", "docker", False),
    # docker compose with a container_name ("frigate           | ERROR: ..."): a lowercase name padded to the column,
    # then a line that starts as a log line does (a level word, a bracket, a date), unlike a table's "Flags  | [FP16]"
    # (a level word in any case: a Node service's "double-take    | error: compreface process error: ...")
    (r"[a-z][\w.-]{1,62} {2,}\| ?(?=(?:" + _LVL_ANY_CASE + r")[:\s\]]|\[|\d{4}-\d\d-\d\d)",
     "docker", False),
    # ROS 2 launch: "[autoware_bevfusion_node-1] ", "[detectnet-2] " (the node's name and its process number)
    (r"\[[A-Za-z_][\w.]{0,62}-\d{1,3}\]\s+(?=\S)", None, False),
    # Ray: "(ServeController pid=910) ", "(pid=1234, ip=10.0.0.5) ", "(RayWorker pid=77) " before a worker's line
    # (vLLM's workers add their rank: "(VllmWorker rank=2 pid=808339) ")
    (r"\((?:[A-Za-z_][\w.:-]{0,80} )?(?:(?:rank|tp|dp|pp|ep)=\d+ )*pid=\d+(?:, ip=[\d.]+)?\)\s+(?=\S)", None, False),
    # vLLM's logger: "ERROR 10-24 03:34:42 [core.py:797] " (older releases: "ERROR 03-02 17:57:30 engine.py:242] "), the
    # traceback it logs line by line under it keeping its own indentation
    (r"(?P<lvl>DEBUG|INFO|WARNING|ERROR|CRITICAL) \d\d-\d\d \d\d:\d\d:\d\d(?:\.\d+)? "
     r"(?:\[[\w./-]{1,80}:\d+\]|[\w./-]{1,80}:\d+\]) ?", None, False),
    # syslog / journalctl: "Nov  3 10:02:25 jetbot-2G nvargus-daemon[5043]: "
    (r"[A-Z][a-z]{2} [ \d]\d \d{2}:\d{2}:\d{2} [\w.-]+ [\w./@-]{1,60}(?:\[\d+\])?: ", None, False),
    # ONNX Runtime: "2024-01-01 10:00:00.123 [W:onnxruntime:Default, tensorrt_execution_provider.h:88 log] "
    (r"\[(?P<lvl>[VIWEF]):onnxruntime:[^\]]*\]\s*", "onnxruntime", False),
    # Inner TensorRT logger line of the ORT provider: "[2024-01-01 10:00:00 ERROR] " (overrides the outer tag)
    (r"\[\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}\s+" + _LVL + r"\]\s*", None, True),
    # Python's warnings module: "/x/acc_ops.py:840: UserWarning: " (a warning whatever words follow it)
    (r"\S+?\.py:\d+: [A-Z]\w*?(?P<lvl>Warning): ", None, False),
    # docker build (BuildKit) output: "#36 235.7 " / "36 235.7 "
    (r"#?\d{1,4} \d+\.\d \s*(?=\S)", "docker", False),
    # TensorFlow (TF-TRT): "2023-01-27 14:05:53.348636: W tensorflow/.../dso_loader.cc:64] "
    (r"(?:\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}\.\d+)?: (?P<lvl>[IWEF]) [^\s\]]+:\d+\]\s?", "tensorflow", False),
    # GLib / GStreamer: "(gst-plugin-scanner:7): GStreamer-WARNING **: 18:43:36.486: "
    # (or with no log domain, after GLib's own stars: "** (gst-launch-1.0:5919): CRITICAL **: 17:47:53.770: ")
    (r"(?:\*\* )?\([\w.-]+:\d+\): (?:[\w-]+?-)?" + _LVL + r" \*\*: (?:[\d:.]+: )?", "glib", False),
    # Unreal Engine's log: "[2020.10.21-02.11.56:403][  0]AzureKinectDeviceLog: Error: ..." (its time and frame, then
    # the log category and the verbosity; Display and Log are its info)
    (r"(?:\[\d{4}\.\d\d\.\d\d-\d\d\.\d\d\.\d\d:\d{3}\]\[\s*\d+\])?(?:Log[A-Z]\w{0,60}|[A-Z]\w{1,60}Log\w{0,40}): "
     r"(?:(?P<lvl>Error|Warning|Fatal)|Display|Log|Verbose|VeryVerbose): ", None, False),
    # a C/C++ logger that prints its source location, then the level ("tensorrt_logger.h:51: Error: ERROR: ...", TVM's
    # TensorRT runtime; not a compiler's "file.cpp:12:5: error:", which has a column and its own rule)
    (r"[\w./\\-]{1,300}\.(?:h|hpp|c|cc|cpp|cu|cxx|py):\d+: (?P<lvl>Error|ERROR|Fatal|FATAL|Warning|WARNING): ", None, False),
    # first-sight batch 34: a container manager's export of a container's log ("2024/07/01 18:06:58\tstdout\t", the
    # time, the stream, tabs); Python's rich handler ("[04/02/24 17:44:52] ERROR    Exception in worker process": its
    # short date and time bracketed, the level as the next field); a logging format that joins time, level and the
    # file with dashes ("2024-10-16 16:13:06-INFO-loader.py:79: ", faiss' loader under an app's format); a browser
    # console's source link before a script's message ("audioProcessor.js:2 Error during inference: ...")
    (r"\d{4}/\d{2}/\d{2} \d{2}:\d{2}:\d{2}\t(?:stdout|stderr)\t", "docker", False),
    (r"\[\d{1,2}/\d{1,2}/\d{2}(?:\d{2})? \d{1,2}:\d{2}:\d{2}(?:[.,]\d+)?\]\s+(?=\S)", None, False),
    (r"\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}(?:[.,]\d+)?-(?P<lvl>DEBUG|INFO|WARNING|ERROR|CRITICAL)-[\w.-]{1,80}:\d+:\s?",
     "python-logging", False),
    (r"[\w.-]{1,80}\.(?:js|mjs|cjs|ts):\d+ (?=\S)", None, False),
    # first-sight batch 35: Sunshine's colon-separated date ("[2023:12:03:20:04:39]: ")
    (r"\[\d{4}(?::\d{2}){5}(?:\.\d+)?\]:\s+", None, False),
    # ISO timestamp, optionally bracketed; ComfyUI's log closes it with " - " ("2025-01-28T20:59:39.460322 - Traceback
    # (most recent call last):", first-sight batch 37)
    (r"\[?\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}:\d{2}(?:[.,]\d+)?(?:Z|[+-]\d{2}:?\d{2})?\]?(?:\s+-(?=\s|$))?(?:\s+|$)",
     None, False),
    # a Unix epoch time before a bracketed field (ROS 2 launch: "1704759117.6031718 [ERROR] [launch]: ...")
    (r"\d{10}(?:\.\d{1,9})?\s+(?=\[)", None, False),
    # trtexec / Python logger timestamp: "[08/07/2024-12:27:04] "
    (r"\[\d{2}/\d{2}/\d{4}-\d{2}:\d{2}:\d{2}\]\s*", None, False),
    # glog / Triton: "E0305 12:00:00.123456 1 file.cc:123] "
    (r"(?P<lvl>[IWEF])(?:\d{4}|\d{8}) \d{2}:\d{2}:\d{2}\.\d+\s+\d+\s+[^\s\]]+:\d+\]\s?", "glog", False),
    # GStreamer's debug log (DeepStream's nvinfer): "0:00:05.33  1168  0x7f3c0022d0 WARN   nvinfer
    # gstnvinfer.cpp:635:gst_nvinfer_logger:<primary_gie> " (the clock, pid and thread may be cut off)
    (r"(?:\d+:\d\d:\d\d\.\d+\s+\d+\s+0x[0-9a-f]+\s+)?(?P<lvl>ERROR|WARN|INFO|DEBUG) +\w+ "
     r"[\w.-]+:\d+:\w+:(?:<[^>]*>)?\s*", None, False),
    # a time of day alone: "12:01:02 ", "[12:01:02.345] ", bazel's "(03:04:19) ", or after a short date:
    # mmengine's "12/14 17:15:38 " (apps that print no full date before "[E]" or "- ERROR -")
    (r"(?:\d{1,2}/\d{1,2} )?[\[(]?\d{1,2}:\d{2}:\d{2}(?:[.,-]\d+)?[\])]?\s+(?=\S)", None, False),
    # a time of day closed by a colon, with the script that printed the line: CodeProject.AI's module log ("11:38:59:
    # detect_adapter.py: Traceback ..."), Flowframes' "11-27-2020 10:56:49: [E] ..." (a date first)
    (r"(?:\d{1,2}-\d{1,2}-\d{4} )?\d{1,2}:\d{2}:\d{2}:(?:[\w.-]{1,80}\.py:)?\s+(?=\S)", None, False),
    # spdlog (mmdeploy, tensorrt_pro ...): "[mmdeploy] [error] " after its bracketed timestamp
    (r"\[[\w.-]+\] \[(?P<lvl>error|warning|info|debug|critical)\]\s*", None, False),
    # protobuf: "[libprotobuf ERROR google/protobuf/text_format.cc:298] "
    (r"\[libprotobuf " + _LVL + r" [^\]]*\]\s*", None, False),
    # Python logging: "2024-... - name - ERROR - " (the timestamp was removed above) or "ERROR:name:"
    (r"-?\s*(?:[\w.]+ - )?" + _LVL + r" - ", "python-logging", False),
    # Torch-TensorRT: "ERROR: [Torch-TensorRT TorchScript Conversion Context] - " / "ERROR:torch_tensorrt [..]:"
    (_LVL + r": \[Torch-TensorRT[^\]]*\] - ", "torch-tensorrt", False),
    (_LVL + r":torch_tensorrt(?:\.[\w.]+)?(?: \[[^\]]*\])?:\s*", "torch-tensorrt", False),
    # TRT 7 Python: "[TensorRT] ERROR: "
    (r"\[TensorRT\] " + _LVL + r":\s*", "trt7", False),
    # "ERROR: [TRT]: " / "[TRT]:ERROR: "
    (_LVL + r":\s*\[TRT\]:?\s*", "python", False),
    (r"\[TRT\]:?\s*" + _LVL + r":\s*", "python", False),
    # pytest's failure report: "E           RuntimeError: ..."
    (r"(?P<lvl>E)(?: {3,}|\t)(?=\S)", "pytest", False),
    # OpenCV's logger: "[ERROR:0@0.173] global onnx_importer.cpp:1051 handleNode ...", "[ WARN:0] ..." (level, thread,
    # seconds since start). Its WARN carries failures the program goes on after ("imread_('%01d.jpg'): can't open/read
    # file"): below ERROR the line's own words decide
    (r"\[ ?(?P<lvl>ERROR|FATAL):\d{1,4}(?:@\d+\.\d+)?\]\s*", None, False),
    (r"\[ ?(?:WARN|INFO|DEBUG|VERBOSE):\d{1,4}(?:@\d+\.\d+)?\]\s*", None, False),
    # deepstream-app's own messages: "** ERROR: <parse_config_file:536>: parse_config_file failed", "** INFO: <bus_callback:
    # 291>: Pipeline ready"
    (r"\*\* (?P<lvl>ERROR|WARN|WARNING|INFO): (?:<[\w:]{1,80}>: )?", None, False),
    # an application's bracketed level word: "[ERROR] ", "[error]: ", "[Warning] "
    (r"\[(?P<lvl>" + _LVL_ANY_CASE + r")\]:?\s*", None, False),
    # trtexec / Polygraphy / Python logger tags: "[E] ", "[TRT] ", "[!] "
    (r"\[(?P<lvl>[VIWEF!])\]\s*", None, False),
    (r"\[TRT\]\s*", "trt", False),
    # Singularity's and Apptainer's level padded before its colon ("ERROR  : Unknown image format/type", "FATAL:   container
    # creation failed": first-sight batch 35), after the rules that read a wrapper's tag behind "ERROR: "
    (r"(?P<lvl>ERROR|FATAL|WARNING|INFO|DEBUG|VERBOSE)(?: +: +|: {2,})(?=\S)", None, False),
    # a bare upper-case level word as the first field: "ERROR base_events.py:1821: ...", "WARNING  msg"
    (r"(?P<lvl>" + "|".join(_PLAIN_WORDS) + r")\s+(?=[\w\[(<\"'])", None, False),
    # Python logging default "ERROR:root:"
    (r"(?P<lvl>ERROR|WARNING|INFO|DEBUG|CRITICAL):[\w.]+:", "python-logging", False),
]

_BARE_LEVEL = re_compile(r"\(?" + _LVL + r":\s+")
"""A bare level word and its colon at the start of the payload ("ERROR: ..."), also inside the parenthesis a script
wraps its message in ("(ERROR: Unsupported device." from a Jetson flashing script, first-sight batch 30)."""
TRACEBACK_HEADER = r"(?:(?P<name>[A-Za-z_][\w.]*(?:Error|Exception|Interrupt|Exit))\s{2,})?Traceback \(most recent call last\)"
"""A Python traceback's header: "Traceback (most recent call last):", or IPython's (Jupyter's), which names the exception
(`name`) first and has no colon ("AttributeError                            Traceback (most recent call last)")."""
_TRACEBACK = re_compile(TRACEBACK_HEADER + r"(?::|\s*$)")
_EXCEPTION = re_compile(
    r"[\"'`]?(?:(?:[A-Za-z_][\w]*\.)+(?:Error|Exception)|(?:[A-Za-z_][\w]*\.)*(?:[A-Z][A-Za-z0-9_]*(?:Error|Exception)|Exception"
    # a class named for the failure itself ("BackendCompilerFailed: hidet_backend raised NotImplementedError: ...")
    r"|[A-Z][a-z]+[A-Z][A-Za-z0-9_]*(?:Failed|Failure)"
    # a class of a package's exceptions module, whatever its name: "torch._dynamo.exc.Unsupported: ..."
    r"|(?<=\.)(?:exc|errors?|exceptions?)\.[A-Z][A-Za-z0-9_]*"
    r"|KeyboardInterrupt|SystemExit|pybind11::\w+|nvinfer1::\w+Error"
    # Paddle's exception class, raised to Python ("paddle.fluid.core_avx.EnforceNotMet: " with its report below)
    r"|EnforceNotMet"
    # a Ruby or C++ namespaced error class ("OnnxRuntime::Error: ...", the onnxruntime gem)
    r"|(?:[A-Z][A-Za-z0-9_]*::)+[A-Z]?[A-Za-z0-9_]*(?:Error|Exception)))(?::\s|:?$)"
)
"""A Python (or pybind11) exception line: `ValueError: ...`, `pkg.mod.Error: ...`, quoted or indented too."""
_LEVEL_FIELD = re_compile(
    # "2024-05-01 10:00:00|app|error|msg" (the level as one of the first pipe-separated fields)
    r"^\|?(?:[^|]{1,48}\|){0,3}\s*(?P<pipe>" + _LVL_ANY_CASE + r")\s*\|"
    # logfmt and JSON: level=error, "level": "error", severity=ERROR
    r"|\b(?:level|lvl|severity|loglevel)\"?\s*[=:]\s*\"?(?P<kv>" + _LVL_ANY_CASE + r")\b"
    # "[TensorRT-LLM][ERROR] ...": an app's bracketed tag, then the level
    r"|^\[[\w .:/-]{1,48}\]\s?\[(?P<tag>" + _LVL_ANY_CASE + r")\]"
    # glog / Triton in the middle of a pasted line: "... E0305 12:00:00.123456 1 file.cc:123] ..."
    r"|(?:^|\s)(?P<glog>[EFWI])(?:\d{4}|\d{8}) \d{2}:\d{2}:\d{2}\.\d+\s+\d+\s+[^\s\]]+:\d+\]"
    # trtexec's timestamp and tag in the middle of a line: another program's output joined in front of it
    # ("pointNum : {51916}[01/18/2022-11:34:29] [E] [Error] File Size Error! 1038336")
    r"|\S\[\d{2}/\d{2}/\d{4}-\d{2}:\d{2}:\d{2}\] \[(?P<trtmid>[EFWIV])\] "
    # a server's JSON error object as the whole line: {"error": "..."}
    r"|^\{\s*\"(?P<json>error|err|exception|error_message|errorMessage|error_msg)\"\s*:"
    # first-sight batch 34: a JSON field whose value is an exception line (infinity's '"message": "InternalServerError:
    # ..."'), a logfmt field holding an exception's repr (Milvus' "reason=<MilvusException: (code=1100, ...)>")
    r"|\"(?:message|detail|msg|error)\"\s*:\s*\"(?P<jexc>(?:[\w.]+\.)?[A-Z]\w*(?:Error|Exception)): "
    # and a JSON error object whose message field is not its first ('{"error_code": 400, "error_message": "..."}')
    r"|\"(?P<jerr>error_message|errorMessage|error_msg)\"\s*:\s*\"\S"
    r"|\b(?:reason|error|err|exception|cause)=<?(?P<kvexc>(?:[\w.]+\.)?[A-Z]\w*(?:Error|Exception))\b"
    # a bracketed time, then the level, anywhere (a Rust service's log line inside another wrapper's JSON message):
    # "[09-25 19:03:45.989 ERROR  nim_sdk::hub::repo ...]"
    r"|\[(?:\d{2,4}[-/])?\d{1,2}[-/]\d{1,2}[ T]\d{2}:\d{2}:\d{2}(?:[.,]\d+)?\s+(?P<brk>ERROR|FATAL|CRITICAL|WARN|WARNING)\b"
    # Python logging in padded columns: "[2023-10-19 22:08:27] frigate.record   ERROR   : list index out of range"
    r"|(?:^|\]\s)\s*[a-z_][\w.]{1,60}\s{2,}(?P<col>ERROR|CRITICAL|FATAL|WARNING)\s*: "
    # Python logging's dashed fields: "2023-11-28:11:00:01 - root - ERROR - The shape of the mask ..." (MMDeploy)
    r"|(?:^|\s)-\s[\w.<>-]{1,60}\s-\s(?P<dash>ERROR|CRITICAL|FATAL|WARNING)\s-\s"
    # Python logging's "%(name)s [%(levelname)s] - ": "2019-09-07 15:39:21,386 Build [ERROR] - cuda_home and cudnn_home
    # paths must be specified and valid." (ONNX Runtime's build.py; the timestamp was read above)
    r"|^[A-Za-z_][\w.-]{0,60} \[(?P<named>ERROR|CRITICAL|FATAL|WARNING|INFO|DEBUG)\] - "
    # a level padded to its column after a compact numeric time: LXC's "lxc c1 20230301193658.390 ERROR    conf - ..."
    # (first-sight batch 35: its WARN lines say "Failed to fchownat" on starts that go on)
    r"|(?:^|\s)\d{8,14}(?:\.\d{1,9})?\s+(?P<numcol>ERROR|FATAL|WARNING|WARN|INFO|DEBUG)\s{2,}(?=\S)"
    # a notebook's error output as JSON (VS Code's, an .ipynb's): "name": "RuntimeError", "ename": "ValueError"
    r"|^\s*\{?\s*\"e?name\"\s*:\s*\"(?P<jname>(?:[A-Za-z_]\w*\.)*[A-Z]\w*(?:Error|Exception))\""
)
"""A level (or an error object) that a wrapper puts somewhere other than the line's start: read when no
prefix rule gave the line a level."""
_ERROR_OBJECTS = frozenset({"json", "jname", "jexc", "kvexc", "jerr"})
"""`_LEVEL_FIELD`'s groups that find an error object (a JSON error, an exception's name) rather than a level word."""
_WARN_CALL = re_compile(r"\s*warnings\.warn\(")
"""The source line Python prints under a warning (`  warnings.warn("Cannot load onnxruntime.capi. Error: ...")`): code,
whatever words its message holds; the warning line above it says what happened."""
_FALLBACK = re_compile(r"[,;] (?:use|using|will use|trying) [\w.-]+ instead\b"
                       # "Could not read timing cache from: X. A new timing cache will be generated and written." (vs-mlrt)
                       r"|\.\s+A new [\w -]{1,40} will be (?:generated|created|built|written)\b"
                       # "Failed to load GPU Faiss: name 'GpuIndexIVFFlat' is not defined. Will not load constructor refs
                       # for GPU indexes." (faiss-cpu's import, first-sight batch 34)
                       r"|\.\s+Will not (?:load|use|register|try)\b"
                       # an optional feature's missing dependency: "Unable to import quantization op. Please install
                       # modelopt library (https://...) to add support for compiling quantized models" (Torch-TensorRT's
                       # import, first-sight batch 36): the program goes on without that feature
                       r"|\bPlease install .{1,240}? to (?:add|enable) (?:support for|the use of)\b")
"""A notice that a program went on another way ("failed to import ttsfrd, use WeTextProcessing instead"; a cache it
could not read and makes anew): the words of a failure, on a line that reports none."""
APP_STEP_HEADER = r"(?:Error occurred when executing [\w .-]{1,80}|An error occurred in an? [^\n]{1,80} node):\s*$"
"""An app's header over the error of one of its steps, its message on the lines under it (ComfyUI: "Error occurred
when executing KSampler:", chaiNNer: "An error occurred in a onnx Upscale Image node:"): a report frame here, and the
matcher joins it with the message (`matcher._APP_HEADER`)."""
_PARSER_FRAME = re_compile(
    r"ModelImporter\.cpp:\d+: (?:--- (?:Begin|End) node ---|(?:input|output|name|op_type|domain): \"[^\"]*\")\s*$"
    # the header of the parser's error ("ERROR: /opt/onnx-tensorrt/ModelImporter.cpp:143 In function importNode:"): the
    # next line says what failed
    r"|(?:ModelImporter|builtin_op_importers|onnxOpImporters|importerUtils)\.cpp:\d+ In function \w+:?\s*$"
    # Paddle's error report: its C++ traceback's header and the summary's header, before the message itself
    r"|^C\+\+ Traceback \(most recent call last\):\s*$|^Error Message Summary:\s*$"
    r"|^C\+\+ Call Stacks \(More useful to developers\):\s*$|^Python Call Stacks \(More useful to users\):\s*$"
    # the linker's header before the symbol it could not resolve ("ld: x.o: in function `Foo::Foo()':")
    r"|: in function [`'][^`']{1,400}':\s*$"
    # an app's header over the error of one of its steps (ComfyUI: "Error occurred when executing KSampler:", chaiNNer: "An
    # error occurred in a onnx Upscale Image node:"), the message on the lines under it
    r"|^" + APP_STEP_HEADER +
    # CMake's error header whose message is on the indented lines under it ("CMake Error at CMakeLists.txt:239
    # (find_library):" over "  Could not find ONNX_LIBRARY using the following names: libonnx.so")
    r"|^CMake Error at \S{1,300}:\d+ \([\w]{1,60}\):\s*$"
    # GLib's g_critical (GStreamer, DeepStream): a failed check the program goes on after, often a consequence of the
    # line that says what failed ("Failed to load config file"); it leads only a paste that holds nothing else
    r"|^(?:\*\* )?\([\w.-]+:\d+\): (?:[\w-]+?-)?CRITICAL \*\*: "
    # loguru's header over a traceback it caught: the exception line under it says what failed
    r"|^An error has been caught in function '[^'\n]{1,120}', process '[^'\n]{1,120}' \(\d+\), "
    r"thread '[^'\n]{1,120}' \(\d+\):\s*$"
    # AUTOMATIC1111's web UI announcing the traceback of a script or extension it could not load or run
    r"|^(?:\*\*\* )?Error (?:loading script|running (?:install\.py|preload\(\)|callback)|executing callback)\b.{0,300}$"
    # the headers of reports whose own exception line comes below them: TorchScript's interpreter ("RuntimeError: The
    # following operation failed in the TorchScript interpreter." over its TorchScript traceback), TVM's FFI error
    # ("tvm._ffi.base.TVMError: Traceback (most recent call last):" over its C++ frames), and uvicorn's summary after an
    # app's startup traceback ("ERROR:    Application startup failed. Exiting.")
    r"|^(?:[\w.]+Error: )?The following operation failed in the TorchScript interpreter\.\s*$"
    r"|^(?:[\w.]+\.)?TVMError: Traceback \(most recent call last\):\s*$"
    r"|^Application startup failed\. Exiting\.\s*$"
    # ComfyUI's error report in Markdown: the exception's class on its own line, the message on the next
    # ("- **Exception Type:** Exception" over "- **Exception Message:** Unable to import dependency onnxruntime.")
    r"|^- \*\*Exception Type:\*\* ")
"""The frame of an error report, each line under the error tag: the ONNX parser's dump of the node it failed on
("--- Begin node ---", its inputs, name and op type) and its "In function X:" header, Paddle's report headers, the
linker's "in function" header, GLib's CRITICAL checks, the web UI's "Error loading script: X". A failure (a report is
printed only on one), but the context of the line that says why, which leads instead; such a line leads only a paste
that holds nothing else."""


TENSORRT_OWN = re_compile(
    r"Error Code \d+:|\[[\w./~-]+\.(?:cpp|cu|h|hpp)::[\w~:]+::\d+\]|ModelImporter\.cpp|builtin_op_importers|"
    r"onnx2trt|onnxOpImporters|importerContext|\bIn node -?\d+|Could not find any implementation|"
    r"Parameter check failed|\[TRT\]|\[TensorRT\]"
    # TensorRT's logger's error code before the message ("1: [runtime.cpp::...]", "1: Unexpected exception ...")
    r"|^\d{1,2}: (?:\[[\w./~-]+\.(?:cpp|cu|h|hpp)::|Unexpected exception\b)")
"""What only TensorRT prints: its error codes, its source locations, the ONNX parser's files and messages."""


def is_exception_line(text: str) -> bool:
    """Is this a Python (or pybind11) exception line (`_EXCEPTION`: `pkg.mod.Error: message`)?"""
    return _EXCEPTION.match(text.lstrip()) is not None


_EMPTY_EXCEPTION = re_compile(r"^[\"'`]?(?:[A-Za-z_]\w*\.)*[A-Za-z_]\w*(?:Error|Exception):?\s*$")


def exception_without_message(text: str) -> bool:
    """An `...Error` / `...Exception` line whose message is empty ("tripy.common.exception.TripyException: "): the message
    is on the lines below it (not Paddle's EnforceNotMet header, whose report follows in its own order)."""
    return _EMPTY_EXCEPTION.match(text) is not None


def is_report_frame(text: str) -> bool:
    """Is this line the frame of an error report (`_PARSER_FRAME`), not the line that says what failed?"""
    return _PARSER_FRAME.search(text) is not None
_BRACKETED_FIELDS = re_compile(r"(?:\[[^\]\n]{1,80}\]\s*){1,4}")
"""Bracketed fields before a message (a time, a process and thread id) that no prefix rule knows."""
_TERMINATE = re_compile(r"terminate called after throwing an instance of")
_WHAT = re_compile(r"what\(\):\s")
"""The message of the C++ exception that ended the program, on the line after "terminate called ..."."""
_NAMED_FAILURE = (
    r"\b[Ff]ailed to [a-z]\w*(?: [\w.-]+){0,4}: (?:[\w.]+\.)?[A-Z]\w*(?:Error|Exception): |\[TensorRT-LLM\]\[ERROR\]")
"""A step that failed with a named exception (Triton's python backend logs it at I: "Failed to initialize Python stub:
AssertionError: [TensorRT-LLM][ERROR] ..."), and TensorRT-LLM's own error tag inside a message: an error whatever the
line's tag says, info included (`_PAYLOAD_ERROR`, `_INFO_ERROR`)."""
_PAYLOAD_ERROR = re_compile(
    r"\bError Code \d+:|\bAssertion failed\b|^&&&& FAILED\b|^\[\d+\] (?:Assertion failed|Invalid Node)"
    # crashes: signals, core dumps, aborts (glibc, Linux shells, a Chinese locale's shell), C asserts
    r"|\bSegmentation fault\b|\(core dumped\)|^(?:Aborted|Bus error|Illegal instruction|Floating point exception)\b"
    r"|\breceived signal SIG[A-Z]+|\bcaught signal \d+|^Fatal Python error:|^Windows fatal exception:"
    r"|^\*\*\* (?:SIGSEGV|SIGABRT)|^\*\*\* Check failure stack trace: \*\*\*|^what\(\):\s|"
    r"\u6bb5\u9519\u8bef|\u6838\u5fc3\u5df2\u8f6c\u50a8|^\u5df2\u653e\u5f03|: Assertion [`'].*' failed"
    r"|:\d+: .{1,300}?: Assertion [`']?.+' failed\.?$"  # glibc's assert, its opening quote lost in a Markdown paste
    # wrappers that report a failed load: Triton's model table, ONNX Runtime's exceptions and EP errors
    r"|\bUNAVAILABLE: |\[ONNXRuntimeError\]|^\*+ EP Error \*+|\bException during initialization\b"
    r"|\bParameter check failed at: "  # TensorRT's API argument checks (an untagged paste of one, too)
    r"|^error: "  # a GStreamer element's error (DeepStream's nvinfer), which its debug log tags WARN
    # gst-launch refusing the pipeline it was given, which it prints as "WARNING: erroneous pipeline: no element ..."
    r"|\berroneous pipeline: "
    # the kernel's account of a process it stopped (dmesg, syslog): an instruction the CPU lacks, a bad address
    r"|\btraps: \S{1,80}\[\d+\] (?:trap )?(?:invalid opcode|divide error|general protection|stack segment)\b"
    r"|\b\S{1,80}\[\d+\]: segfault at [0-9a-f]+ ip [0-9a-f]+ sp [0-9a-f]+ error \d+"
    r"|\bAccess violation (?:reading|writing|executing) location\b|\bexport failure\b"
    # glibc's heap checks, printed just before the abort they cause
    r"|^(?:double free or corruption|free\(\): |malloc\(\): |realloc\(\): |munmap_chunk\(\): |malloc_consolidate\(\): "
    r"|corrupted (?:size vs\. prev_size|double-linked list))|\*\*\* stack smashing detected \*\*\*"
    r"|^\*\*\* Error in `"
    # a crash handler's report (Open MPI, TensorRT-LLM): "*** Process received signal ***", "Signal: Aborted (6)"
    r"|\*\*\* Process received signal \*\*\*|\bSignal: [A-Z][a-z]+(?: [a-z]+)* \(\d+\)"
    # Windows' crash report ("Attempt to read from address 0000000000000000")
    r"|\bAttempt to (?:read from|write to|execute) address\b"
    # systemd's account of a service that crashed; the loader out of static TLS (Jetson's libGLdispatch)
    r"|\bMain process exited, code=(?:dumped|killed), status=\d+/[A-Z]+|cannot allocate memory in static TLS block"
    # TensorFlow's op failure (logged under W), Paddle's error header
    r"|\bOP_REQUIRES failed at\b|^C\+\+ (?:Call Stacks|Traceback) \(More useful to developers\)"
    # a TensorRT stack's own runtime or library that could not be imported, whatever the tag (torch_tensorrt's
    # UserWarning "Unable to import torchscript frontend core and torch-tensorrt runtime"); an optional library's
    # warning ("Unable to import torchvision related libraries") stays a warning
    r"|\bUnable to (?:import|load) [^.\n]{0,80}?\b(?:torch-tensorrt|torch_tensorrt|tensorrt|TensorRT|nvinfer)\b[^.\n]{0,40}?"
    r"\b(?:runtime|library|libraries|plugins?)\b"
    # Windows: a process ended by an NTSTATUS (DLL not found, access violation, stack buffer overrun...)
    r"|\bSTATUS_(?:DLL_NOT_FOUND|ACCESS_VIOLATION|STACK_BUFFER_OVERRUN|HEAP_CORRUPTION|ILLEGAL_INSTRUCTION"
    r"|ENTRYPOINT_NOT_FOUND|STACK_OVERFLOW|INVALID_IMAGE_FORMAT)\b"
    # jetson-utils' CUDA check ("[cuda]   unknown error (error 999) (hex 0x3E7)"); WinDbg's exception record of a
    # crash ("ExceptionCode: c0000374", heap corruption)
    r"|\(error \d+\) \(hex 0x[0-9A-Fa-f]+\)|^\s*ExceptionCode: c0000\w{3}\b"
    # pip resolving TensorRT to its placeholder release (0.0.1, yanked: "not built and distributed by NVIDIA"), in
    # pip's WARNING lines
    r"|yanked version: '(?:nvidia-)?tensorrt' candidate \(version 0\.0\.1"
    # a package's own native module that did not load, reported as a Python warning (onnxruntime: "UserWarning: Cannot
    # load onnxruntime.capi. Error: 'libiomp5.so: cannot open shared object file ...'"); the import fails next
    r"|(?:^|\bWarning: )Cannot (?:load|import) [\w.]{1,80}\. Error: '"
    r"|\b(?:nvidia-)?tensorrt-0\.0\.1(?:\.dev\d+)?\.tar\.gz\b.{0,600}?Command errored out with exit status"
    r"|" + _NAMED_FAILURE
)
"""A failure whatever the line's tag says (a missing tag, or a warning tag from a wrapper, lies)."""
MAKE_FATAL = r"^\S{1,300}:\d+: \*\*\* .{1,600}?\bStop\.?\s*$"
"""GNU make's own fatal form (`$(error ...)`, a missing separator): "Makefile:236: *** <message>.  Stop."."""
_UNTAGGED_FAILURE = re_compile(
    r"\b(?:[Ff]ailed|FAILED) to [a-z]{3,}"  # "Failed to <do something>": on an untagged line, a failure
    # a step named as failed, at the line's start ("Failed inference for CodeFormer: ...", "Diarization failed: module
    # ..."); an app's own status tag over a step that failed or found nothing ("[FACEFUSION.CORE] Merging video failed",
    # "[ROOP.CORE] Frames not found..."); ComfyUI's import-times table ("0.0 seconds (IMPORT FAILED): <node folder>")
    r"|^[Ff]ailed [a-z]{3,}(?: [a-z]{2,}){0,2} (?:for|of|on|in|with) [^:\n]{1,80}: \S"
    r"|^[A-Z][a-z]{2,}(?: [a-z]{2,}){0,3} failed: \S"
    r"|^\[[A-Z][A-Z0-9_]*(?:\.[A-Z0-9_]+)+\] [^\n]{1,120}? (?:failed|not found)[.!]{0,3}\s*$"
    r"|\(IMPORT FAILED\): "
    # Python's own exception texts printed without the exception's name, by an app that caught it
    r"|\bgot an unexpected keyword argument [`'\"]|\bhas no attribute [`'\"]\w|\bobject is not (?:callable|subscriptable)\b"
    r"|\btakes \d+ positional arguments? but \d+ (?:were|was) given\b|\bmissing \d+ required (?:positional|keyword-only) argument"
    # a native API call that failed with its code ("vkCreateInstance failed -9", ncnn's Vulkan start-up), an app that
    # found no backend or device to run on ("No onnxruntime backend found.", "invalid gpu device")
    r"|\b[a-z][a-z0-9]{0,7}[A-Z]\w{2,60} failed:? -?\d+\b"
    r"|^No [\w.-]{1,40} (?:backend|provider|runtime|driver|device|GPU)s? (?:found|available|detected)\b"
    r"|\binvalid (?:gpu|GPU|cuda|CUDA|vulkan|Vulkan) device\b|^No such file(?: or directory)?\b"
    # an installer's check marked failed ("Installing OpenCV ... (\u274c failed check) done", CodeProject.AI)
    r"|\u274c (?:[Ff]ailed|FAILED|[Ee]rror|ERROR)\b"
    # first-sight batch 33: docker compose refusing to start a service ("Cannot start service fakecam: error gathering
    # device information ..."); a program refusing a file of another format version ("Unsupported model binary version.
    # This executable supports models with binary version v6 or below", CTranslate2); a feature its build lacks ("Conv1D
    # on GPU currently requires the cuDNN library which is not integrated in this build"); the kernel's kill glued to a
    # progress bar ("0/2 [00:00<?, ?it/sKilled"); gRPC-go's dial error ("Err: connection error: desc = \"transport: Error
    # while dialing ... connect: connection refused\"")
    r"|\bCannot start service [\w.-]{1,80}: |^Unsupported (?:model|file|binary|format|data)[\w ]{0,30} version\b"
    r"|\bnot (?:integrated|included|enabled|compiled) in this build\b|(?:it/s|s/it)\]?Killed\b"
    r"|\bErr: connection error: desc = "
    # first-sight batch 34: JavaScript's uncaught error (a browser's console, Electron: "Uncaught (in promise) Error: no
    # available backend found."); DALI's failed check ('Assert on "HasArgument(name)" failed: Argument ...'); an assert
    # statement and its AssertionError pasted on one line ("assert is_tensorrt_plugin_loaded(), '...' AssertionError:
    # TensorRT plugin should be compiled"); the kernel's kill as a lower-case word alone
    r"|^Uncaught (?:\(in promise\) )?(?:[A-Z]\w*)?(?:Error|Exception)\b|\bAssert on \"[^\"\n]{1,300}\" failed\b"
    r"|^\s*assert [^\n]{1,300}?\sAssertionError\b|^killed\s*$"
    # first-sight batch 35: FFmpeg without an encoder, NVENC's status names, nvidia-container-cli's mount and write
    # errors, pkg_resources' version conflict, pip's and uv's refusals ("no such option: ...", "No solution found when
    # resolving dependencies"), BuildKit's failed step and pip's metadata step under it, a script's own Python-version
    # check, a download part that failed (Ollama), a model runtime that crashed (LM Studio), torchrun's failed-script
    # summary, colcon's logger
    r"|^Unknown encoder '|\bNV_ENC_ERR_[A-Z_]+|\bnvidia-container-cli: (?:mount|write|load|initialization|detection) error: "
    r"|\b(?:Contextual)?VersionConflict: |^no such option: |\bNo solution found when resolving dependencies\b"
    r"|=> ERROR \[|\bfinished with status 'error'|\bis too low\. You need at least\b|\battempt \d+ failed: "
    r"|\bhas crashed without additional information\b|^\S{1,300}\.py FAILED\s*$|\bERROR:colcon[.:]"
    r"|\b(?:[Cc]ould not|[Cc]annot|[Cc]an not) be (?:loaded|found|opened|created|initiali[sz]ed)\b"
    # cmd.exe not finding a program (English, Chinese); a tool's own "<Name> error: " (the CM automation's);
    # mmdeploy's assertion macro ("#assertion/path/to/trt_batched_nms.cpp,103")
    r"|is not recognized as an internal or external command|\u4e0d\u662f\u5185\u90e8\u6216\u5916\u90e8\u547d\u4ee4"
    # Jetson's flashing tools finding no board in recovery mode on USB (bootFromExternalStorage, l4t_initrd_flash.sh)
    r"|^No devices to flash\b"
    # first-sight batch 36: googletest's failure lines (a C++ TensorRT project's test binary: "C++ exception with
    # description \"...\" thrown in the test body", "[  FAILED  ] Suite.Test"; its "<file>: Failure" header is not one:
    # the lines under it say what failed), and a test
    # summary's failure counter above zero ("NUM_FAILED_CONVERSION: 1", torch2trt's test.sh; "FAILURES=2")
    r"|^C\+\+ exception with description .{0,600} thrown in the test body"
    r"|^\[  FAILED  \] |^[A-Z][A-Z_]{0,40}FAIL(?:ED|URES?)(?:_[A-Z]+)*\s*[:=]\s*[1-9]\d*\s*$"
    # TensorRT's shuffle-layer check pasted without its tag: "Input dimensions [8,2,2] have volume 32 and output
    # dimensions [2,2] have volume 4" (NVIDIA/TensorRT#1393)
    r"|\bdimensions \[[\d,\s-]{0,80}\] have volume \d+ and output dimensions \[[\d,\s-]{0,80}\] have volume \d+"
    # the loader refusing a library for a symbol version its dependency lacks ("version `libcublas.so.12' not found
    # (required by .../libnvinfer_plugin.so.8)", "version `GLIBCXX_3.4.29' not found")
    r"|\bversion [`'\u2018][^'\u2019\n]{1,80}['\u2019] not found \(required by "
    r"|^[A-Z][\w.-]{1,20} error: |^#assertion\S{1,300},\d+[_*]?\s*$"
    # X11 refusing a request (an app's display window); a step a tool says did not complete ("The virtual
    # environment was not created successfully"); a shell script's job killed or crashed ("./prepare.sh: line 13:
    # 22743 Killed   sudo ./trt_optimizer ...")
    r"|^X Error of failed request: |\bwas not (?:created|built|installed|loaded|completed) successfully\b"
    # GNU make's own fatal form, `$(error ...)` included: "Makefile:236: *** <message>.  Stop."
    r"|" + MAKE_FATAL +
    # GNU ld in a Chinese locale: "对‘symbol’未定义的引用" (undefined reference to `symbol')
    r"|\u672a\u5b9a\u4e49\u7684\u5f15\u7528"
    # CuPy's import failure banner, closed by the error that caused it ("original error: No module named 'fastrlock'")
    r"|^original error: \S"
    # a file a program could not open in its own words (ncnn's "fopen cain.param failed"), a step that failed with
    # Python's errno ("copy triton model templates ... failed: [Errno 2] No such file or directory"), ONNX Runtime's C/C++/C#
    # exception text ("[ErrorCode:InvalidArgument] Tensor element data type ..."), libc++'s uncaught exception (the
    # macOS / Android form of "terminate called after throwing"), yum without the package
    r"|\bfopen \S{1,300} failed\b|\bfailed: \[Errno \d+\] |\[ErrorCode:(?!OK\b)[A-Za-z]+\]"
    r"|\bterminating with uncaught exception of type\b|^No package \S{1,120} available\.?\s*$"
    # Windows' Application event log of a crashed program ("Exception code: 0xc0000005"; Chinese "异常代码: 0xc0000005")
    r"|^(?:Exception code|\u5f02\u5e38\u4ee3\u7801): 0xc0000(?:005|374|409|0fd|01d)\b"
    # loguru's header over the traceback it caught (YOLOX's tools: "An error has been caught in function 'launch', process
    # 'MainProcess' (2628), thread 'MainThread' (...):"): a failure, and the frame of the exception under it
    r"|^An error has been caught in function '"
    # Go's build refusing a package whose every file its build constraints exclude (cgo code built with CGO_ENABLED=0);
    # curl's own error ("curl: (52) Empty reply from server")
    r"|\bbuild constraints exclude all Go files in \S|^curl: \(\d{1,2}\) \S"
    # a kernel driver that did not find its device (dmesg: a camera sensor or serializer silent on I2C, -121 EREMOTEIO)
    r"|\bprobe of \S{1,60} failed with error -\d+|\berror during i2c read probe \(-\d+\)|\bi2c (?:read|write) failed\b"
    # GNU ld finding one symbol defined twice ("tensorrt_runtime.cc:(.text+0x4e0): multiple definition of `X'")
    r"|\bmultiple definition of [`'\u2018]"
    # a native call that failed with its code, in the program's words ("NvAFX_Load() failed with error 1"); GStreamer's
    # error message as a Python app prints it ("GstMessageError, gerror=(GError)NULL, debug=..."); the ONNX checker's
    # context line under its validation error
    r"|\b[A-Za-z_][\w:.]{1,80}\(\) failed(?: with (?:error|code|status) -?\w+)?\b|\bGstMessageError, gerror="
    r"|^==> Context: Bad node spec for node\b"
    r"|^\S{1,200}: line \d+: +\d+ (?:Killed|Segmentation fault|Aborted|Bus error)\b"
    # a shell that could not run what it was told ("gdown: command not found. ...", "bash: ./x.py: no such file or
    # directory", zsh's "zsh: command not found: x"); pkg-config without a package; a build's report that CUDA,
    # TensorRT or cuDNN is missing ("TensorRT is NOT Available", "CUDA NOT FOUND")
    # (not find(1) walking folders it may not read, a container banner's "find: '/usr/lib/ssl/private': Permission denied")
    r"|^(?!find: )(?:\S+: )+(?:[Nn]o such file or directory|command not found|[Pp]ermission denied|no matches found)"
    r"(?:[.:]|\s*$)"
    # Windows' loader refusing to start a program (its dialog's text); bazel's action that failed
    r"|\bThe code execution cannot proceed because |\bThe program can't start because \S{1,200} is missing\b"
    r"|\b(?:Linking|Compiling|C\+\+ compilation|Executing genrule) of rule '[^']{1,300}' failed\b"
    r"|^No package '[^']{1,100}' found\s*$|^Package \S+ was not found in the pkg-config search path"
    r"|^\s*None of the required '[^']{1,100}' found\.?\s*$"
    # CMake's message body under its "CMake Error at ..." header: a folder without a CMakeLists.txt, a backslash escape,
    # a command no included file defines ("Unknown CMake command \"set_ifndef\".")
    r"|^\s*does not contain a CMakeLists\.txt file\.?\s*$|^\s*Invalid escape sequence \\\S"
    r"|^\s*Unknown CMake command \""
    # ctest's line for a test program that failed; Open MPI stopping every rank
    r"|^\s*\d+/\d+ Test +#\d+: \S+ \.*\s*\*{3}(?:Failed|Exception|Timeout)\b|\bMPI_ABORT was invoked on rank \d+"
    # a frame of a Python traceback inside Triton's model table: the status cell of a model that failed to load holds the
    # error and pybind11's "At:" frames ("|   |   |   <frozen importlib._bootstrap>(703): _load_unlocked   |")
    r"|^\|(?:[^|\n]{0,80}\|){1,3}\s+(?:<frozen [\w.]{1,60}>|\S{1,300}\.py)\(\d+\): [\w<>]{1,80}\s+\|\s*$"
    # tritonserver's own signal handler ("Signal (11) received." before its boost stack)
    # (SIGINT and SIGTERM are a stop someone asked for: "Signal (15) received." then a clean shutdown)
    r"|^Signal \((?!(?:2|15)\))\d{1,2}\) received\."
    # ptxas refusing the PTX it assembles ("ptxas /tmp/x.ptx, line 2273; error   : Feature 'f16 arithemetic ...' requires
    # .target sm_53 or higher"; "ptxas fatal   : Unresolved extern function ..."); a program that does not know how to
    # handle its input ("Don't know how to rename transformer.model.layers.0...weight", a checkpoint converter); a
    # component whose start failed with its code ("CacheManager Init Failed. Error: -17")
    r"|\bptxas\b(?: [^\n]{1,300}?, line \d+;)? (?:error|fatal)\s+: "
    r"|\b(?:[Dd]on't|[Dd]o not|[Dd]oesn't|[Dd]oes not|[Cc]an't|[Cc]annot) know how to [a-z]{3,}"
    r"|\b(?:[Ii]nit|INIT|[Ii]nitiali[sz]ation|[Ss]tart(?:up)?) (?:[Ff]ailed|FAILED)[.,:;!]? (?:[Ee]rror|[Cc]ode|[Ss]tatus)\b"
    # a runner's account of the exception that stopped it ("Runner failed with exception: FileNotFoundError(2, ...)")
    r"|\b(?:[Ff]ailed|[Cc]rashed|[Ee]xited|[Dd]ied) with (?:an )?exception:? (?:[\w.]+\.)?[A-Z]\w*(?:Error|Exception)\b"
    r"|\b(?:CUDA|TensorRT|TENSORRT|CUDNN|cuDNN|NVINFER|nvinfer)(?: is)? NOT (?:FOUND|[Aa]vailable|found)\b"
    # pytest's summary of a failed test; BuildKit's marker on the Dockerfile instruction that failed
    r"|^(?:FAILED|ERROR) [\w./\\-]{1,200}\.py::"
    r"|^\s*\d+ \| >>> "
    # an error code in capitals as the line's last word ("[ZED] [Object Detection] MODEL_NOT_FOUND")
    r"|\b[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)*_(?:NOT_FOUND|FAILED|FAILURE|ERROR|INVALID\w*|NOT_DETECTED|UNAVAILABLE)\s*$"
    # a crash's native stack trace in other printers' forms: boost::stacktrace's abort frames, backward-cpp's header
    # (printed from its signal handler), WinDbg's stack header
    r"|^\s*\d+# (?:__GI_)?(?:gsignal|abort|raise|__pthread_kill\w*) in "
    # a symbolizer's crash stack, frame 0 ("camera_master[4078]:   0: nvinfer1::LogStream::Buf::sync() at ??:?")
    r"|(?:^|:\s+)0: [A-Za-z_~][^\n]{0,300}? at \?\?:\?\s*$"
    r"|\bStack trace \(most recent call last\)(?: in thread \d+)?:|\bChild-SP\s+RetAddr\s+Call Site\b"
    # (not docker's pull notice, "Unable to find image 'dustynv/jetson-utils:r36.2.0' locally")
    r"|\b(?:Could not|could not|Couldn't|couldn't|Unable to(?! find image '[^']{1,200}' locally)|unable to|Cannot|cannot"
    r"|Can not|can not|Can't|can't)"
    r" (?:parse|create|load|open|build"
    r"|deserialize|initiali[sz]e|allocate|read|import|register|find|locate|connect|launch|start|execute)\b"
    # Python's OSError text printed alone ("[Errno 2] No such file or directory: '...engine'"), a short "X not found."
    # line, a binary for another CPU ("exec format error"), a server with no GPU, NVIDIA's profilers' error lines
    r"|^\[(?:Errno|WinError) \d+\] |^[\w .'/-]{1,60}\bnot found(?:[.!]|, at \S{1,200})?\s*$|\bexec format error\b"
    r"|\bno (?:CUDA[- ]capable |NVIDIA )?(?:GPUs?|devices?) (?:are |is )?(?:available|detected|found)\b"
    r"|^==(?:ERROR|FATAL)== |^\s*Error (?:parsing|reading|loading|opening|executing|running|creating|calling|writing"
    r"|processing|building|initiali[sz]ing|importing|compiling|converting|during|while|when)\b"
    # an error named by its kind ("SCF: Error InvalidState: Session has suffered a critical failure", Argus)
    r"|^(?:\(\w+\) |\w{1,30}: )?Error [A-Z][A-Za-z]+: "
    # apt and dpkg refusing; the docker CLI refusing its command; the linker (ld) in any language
    r"|^E: [A-Z]|^Errors were encountered while processing:|^docker: [A-Za-z'\"]"
    r"|^(?:\S*/)?(?:ld|ld\.gold|ld\.lld|ld\.bfd)(?:\.exe)?: (?!warning\b)\S"
    # the C library's "No such file or directory" in the user's language (zh_CN, ja_JP, ko_KR)
    r"|\u6ca1\u6709\u90a3\u4e2a\u6587\u4ef6\u6216\u76ee\u5f55"
    r"|\u305d\u306e\u3088\u3046\u306a\u30d5\u30a1\u30a4\u30eb\u3084\u30c7\u30a3\u30ec\u30af\u30c8\u30ea\u306f"
    r"\u3042\u308a\u307e\u305b\u3093"
    r"|\uadf8\ub7f0 \ud30c\uc77c\uc774\ub098 \ub514\ub809\ud130\ub9ac\uac00 \uc5c6\uc2b5\ub2c8\ub2e4"
    # Visual Studio's debugger and output window (also in Chinese): an unhandled exception, a program's exit code;
    # CMake's NOTFOUND values for a library or a compiler it needs
    r"|\bUnhandled exception at 0x[0-9A-Fa-f]+"
    r"|\u5904(?:\(\u4f4d\u4e8e [^)\n]{1,200} \u4e2d\))?\u6709\u672a\u7ecf\u5904\u7406\u7684\u5f02\u5e38"
    r"|\u5df2\u9000\u51fa\uff0c\u8fd4\u56de\u503c\u4e3a -?[1-9]\d* \(0x[0-9a-fA-F]+\)"
    r"|\b\w+_(?:LIB(?:RARY)?|LIB_PATH|COMPILER)-NOTFOUND\b|\b\w*(?:TENSORRT|TensorRT|NVINFER|CUDNN|_LIB)\w*-NOTFOUND\b"
    # CMake's find_package failure inside its "CMake Error at" block (a "-- Could NOT find" status line is an
    # optional package), bazel's and ninja's failed step, catkin's failed package
    r"|^Could NOT find \w+ \(missing: |^FAILED: |^Errors\s+<< "
    r"|\bexport failure\b|^(?:error|fatal error):|^\S+: (?:fatal )?error: |\*\*\* \[[^\]]*\] (?:Error|\u9519\u8bef) \d+"
    # a compiler's error in the user's language: "file.cu:32:2: 错误：#error ...", "致命错误：", "Fehler:", "erreur :"
    r"|^\S+:\d+(?::\d+)?: (?:\w{1,20} )?(?:\u81f4\u547d)?"
    r"(?:\u9519\u8bef|Fehler|erreur|\u043e\u0448\u0438\u0431\u043a\u0430|\u30a8\u30e9\u30fc|errore) ?[:\uff1a]"
    r"|^Killed$|^(?:Exception|Error) in thread |^(?:ERROR|Error) \u274c|^Error: |^Error occurred when executing "
    r"|^Unsupported ONNX data type\b|^Falling back to \[.*\] and retrying|\bDifference exceeds tolerance\b"
    r"|^\((?:InvalidArgument|NotFound|Unavailable|Fatal|External|PreconditionNotMet|Unimplemented|ResourceExhausted)\) "
    r"|(?:^|\s)CMake Error\b|Configuring incomplete, errors occurred|^(?:Invalid argument|Internal): "
    r"|\bfailed: Invalid argument: "
    r"|\b(?:fatal )?error (?:C|LNK|MSB|CS)\d{4}\b"  # MSVC, its linker, MSBuild, C#
    # Visual Studio's error list in the user's language: "错误  LNK2001  无法解析的外部符号 ..."
    r"|(?:^|\s)(?:\u9519\u8bef|\u30a8\u30e9\u30fc|\uc624\ub958|Fehler|Erreur|Error)\s+(?:C|LNK|MSB|CS)\d{4}\s"
    r"|^(?:g?make|ninja)(?:\[\d+\])?: \*\*\* "  # make's own errors ("No rule to make target", "Error 2")
    # a program refusing its arguments (then printing its usage)
    r"|\b(?:[Aa]rguments? (?:not right|invalid|error)|[Ii]nvalid (?:arguments?|options?|usage)|[Ww]rong (?:number of )?arguments?"
    r"|[Uu]nknown (?:option|argument|flag)|[Uu]nrecognized (?:arguments?|options?))\b"
    r"|\b(?:[Aa]n? )?(?:unexpected |fatal |internal )?error (?:occurred|occured|has occurred|happened)\b"
    # a message that opens with its kind of error ("Unexpected error: Input audio chunk is too short"), or a named
    # component's error line ("PyCUDA ERROR: The context stack was not empty upon module cleanup.")
    r"|^(?:[Uu]nexpected|[Uu]nhandled|[Ff]atal|[Ii]nternal|[Cc]ritical|[Rr]untime) (?:error|exception)\b"
    r"|^[\"']?[A-Za-z][\w.-]{1,30} (?:ERROR|FATAL|Fatal error): "
    # a step that says it failed: "Model loading failed", "Load engine file failed: ...", "read x.engine error!",
    # "Error in Build", and a CLI's own failure marks ("× Model loading failed")
    r"|\b(?:[Ll]oad(?:ing)?|[Rr]ead(?:ing)?|[Oo]pen(?:ing)?|[Bb]uild(?:ing)?|[Pp]ars(?:e|ing)|[Cc]reat(?:e|ing)"
    r"|[Ss]erializ(?:e|ing|ation)|[Dd]eserializ(?:e|ing|ation)|[Ii]nitiali[sz](?:e|ing|ation)|[Cc]onver(?:t|ting|sion)"
    r"|[Ee]xport(?:ing)?|[Cc]ompil(?:e|ing|ation)|[Ii]nference)\b[^!?]{0,60}?\b(?:failed|error)(?:[!:]|\.(?: |$)|\s*$)"
    r"|^Error in [A-Za-z]|^[\u00d7\u2717\u2718\u274c] "
    # docker: a build step or a pull that failed
    r"|\bnon-zero (?:exit )?(?:code|status)\b|^(?:ADD|COPY|RUN|FROM) failed: "
    r"|^(?:unauthorized|denied|pull access denied)\b|\bmanifest unknown\b"
    # argparse-style usage errors ("polygraphy inspect model: error: argument --model-type: invalid choice")
    r"|^[\w .-]{1,60}: error: |\b[Ii]nvalid (?:\w+ )?(?:argument|option|choice)s?\b"
    # a traceback flattened into one line behind other text
    r"|\bTraceback \(most recent call last\):"
    # a launcher's summary of a child that failed (mpirun: "Exit code:    1"), Visual Studio's error list ("C2664\t..."),
    # a tool refusing its input ("pipe:: Invalid data found when processing input")
    r"|^Exit (?:code|status):\s+(?!0\b)-?\d+|^(?:C|LNK|MSB)\d{4}\t|: Invalid (?:data|input)\b"
    # a client told the request failed
    r"|\"(?:statusCode|status_code)\"\s*:\s*5\d\d\b"  # a server's JSON request log: the request ended in a 5xx
    # apt refusing the install; conda refusing a spec or an environment
    r"|^The following packages have unmet dependencies\b|^Package \S+ is not available, but is referred to by another package"
    r"|^(?:Invalid[A-Z]\w+|ResolvePackageNotFound|Unsatisfiable\w*): "
    # NVIDIA's CUDA samples (deviceQuery, bandwidthTest): "Result = FAIL"
    r"|^Result = FAIL\b"
    r"|\bRPC failed\b|\brequests? failed\b|\b(?:[Rr]eceived|[Ee]ncountered) an? ?error\b|^Error(?: \w+)?[.!]"
    # a shell, tar or a script naming what it could not find, open or run ("/tensorrt_models.sh: Is a directory",
    # "exec: /tensorrt_models.sh: cannot execute: Is a directory")
    r"|^(?!find: )[^\n]{0,2000}?: (?:No such file or directory|Permission denied|command not found|not found|Is a directory"
    r"|Not a directory)\s*$"
    r"|: cannot execute(?:: [^\n]{1,80})?\s*$"
    # valgrind's and compute-sanitizer's findings: bad frees and accesses, leaks, a non-zero error summary
    r"|^==\d+==\s+(?:Invalid (?:read|write|free|delete)|Mismatched free|Conditional jump or move depends on uninit)"
    r"|^==\d+==\s+ERROR SUMMARY: [1-9]|^==\d+==\s+definitely lost: [1-9]"
    r"|^==\d+==\s+[\d,]+ (?:\([\d,]+ direct, [\d,]+ indirect\) )?bytes in [\d,]+ blocks are (?:definitely|possibly) lost"
    r"|^=========\s+(?:Invalid __\w+__ (?:read|write)|Program hit |Leaked \d+ bytes|ERROR SUMMARY: [1-9])"
    # a worker or thread that reports the error it had (perf_analyzer: "Thread [0] had error: in ensemble ...")
    r"|\bhad (?:an )?error: "
    # a program that announces it gives up ("Empty frame! Exiting...", "Camera open failed! Aborting")
    r"|^(?!\s*(?:Done|Finished|Completed|Success\w*|All done|Bye)\b)[^\n]{3,120}! (?:Exiting|Aborting|Quitting)\b"
    # the linker warning that a library the link needs is missing (the undefined references follow)
    r"|\bwarning: \S+, needed by \S+, not found \(try using -rpath"
    # a compiler's error in a paste whose spacing a translator changed ("onnx2trt.hpp: 44: 14: error: ...")
    r"|^\S+\.(?:c|cc|cpp|cxx|cu|cuh|h|hpp)\s?:\s?\d+\s?:\s?(?:\d+\s?:\s?)?(?:fatal )?error\s?:"
    # the linker given a file that is not a library (a truncated download, a Git LFS pointer), dnf/bitbake without a
    # package, nvcc refusing its flags, OpenCV's own error line, an app's "Something went wrong: <why>", an HTTP
    # client error (requests: "401 Client Error.")
    r"|\b(?:failed|FAILED) (?:building|loading|creating|parsing|converting|exporting|compiling|generating"
    r"|initiali[sz]ing|serializing|deserializing)\b"
    r"|\bfile (?:format )?not recognized\b|\berror adding symbols: [Ff]ile in wrong format"
    r"|\bnothing provides \S+ needed by \S|^\s*Problem: conflicting requests"
    r"|^nvcc (?:fatal|error)\s*:|^OpenCV\([\d.]+\) [^\n]{0,200}?: error: \(-?\d+:|^Something went wrong\b"
    r"|\b[45]\d\d (?:Client|Server) Error\b|^(?:Repository|Revision|Entry) Not Found for url: "
    # numpy's assert_allclose report (an output check that failed: mmdeploy's, a user's test)
    r"|^Not equal to tolerance rtol=|^Mismatched elements: \d+ / \d+|^\(shapes \([\d, ]*\), \([\d, ]*\) mismatch\)"
    # a check that found two things that should agree and do not ("Num classes mismatch. Configured: 35, ...")
    r"|^[\w ]{1,40}\bmismatch(?:ed)?\b[.:!]"
    r"|\bError response from daemon: "  # docker: a container that could not start
    r"|^#\d+\s+0x[0-9a-f]{6,} in "  # a native stack trace (gdb's bt) after a crash
    r"|\bNCCL error\b|\bundefined reference to |the job has been aborted\b"
    r"|^Unhandled exception caught\b|^- \*\*Exception Type:\*\* |\bwas close or execution stopped\b"  # PyTorch abort, ComfyUI
    # the dynamic loader: a library that cannot be found, opened or linked (TensorFlow says the same
    # words in a harmless start-up warning about optional TensorRT libraries)
    r"|\bundefined symbol: |\bsymbol lookup error: |cannot open shared object file|error while loading shared libraries"
    r"|\brelocation error: "
    # a native call that failed with its code: "libcuda.so:cuInit failed : 999", "cudaMalloc failed",
    # "cudaGetDeviceCount returned 35", CUDA's and cuBLAS/cuDNN's error names
    r"|\b(?:cu|cuda|cublas|cudnn|nvrtc|nvml|nccl|nvjpeg)[A-Z]\w*(?:\(\))?\s*(?:failed|returned (?!0\b)-?\d+)"
    r"|\b(?:CUDA|Cuda) (?:error|failure|Error)\b|\bCUDA_ERROR_[A-Z_]+|\bcudaError(?!None\b)[A-Z]\w+"
    r"|\bCU(?:BLAS|DNN|FFT|SPARSE|SOLVER)_STATUS_(?!SUCCESS\b)[A-Z_]+"
    # a process that ended with a non-zero code (Windows NTSTATUS codes are large negative numbers)
    r"|\b(?:exit|exited|returned|terminated|finished) (?:with )?(?:exit )?(?:code|status)[ :=]+(?:-?[1-9]\d*|0x[0-9A-Fa-f]+)\b"
    # a compiler's "file:line:col: error:" behind other text ("In file included from a.h:25: b.h:58:19: error: ...")
    r"|[\w.)\]-]:\d+:\d+: (?:fatal )?(?:error|\*\*error\*\*): "  # the second: a Markdown paste's bold
    # an HTTP response that refused the request (curl -v / -i)
    r"|^<?\s?HTTP/\d(?:\.\d)? [45]\d\d\b"
    # zsh's job report of a process that ended by a signal ("[1]    27275 killed     python3 x.py")
    r"|^\[\d+\][+-]?\s+\d+\s+(?:killed|segmentation fault|abort|bus error|floating point exception"
    r"|illegal hardware instruction)\b"
    # Click (a Python CLI) refusing its command line: it prints the usage, then this, only on a usage error
    r"|^Try ['\"][^'\"]{1,200} --help['\"] for help\.?\s*$"
    # PyTorch refusing a checkpoint (load_state_dict's report, often pasted without its header)
    r"|^\s*size mismatch for [\w.]+: copying a param with shape|^\s*(?:Missing|Unexpected) key\(s\) in state_dict: "
    # a step named after "Error" ("Error saving TensorRT UFF model", "ERROR while loading the engine")
    r"|^(?:Error|ERROR) (?:while |when )?(?:sav|load|writ|read|creat|build|pars|convert|export|serializ|deserializ|open"
    r"|initializ)\w*\b"
    # pip's step that failed ("Preparing metadata (setup.py) ... error"), PyPI's placeholder package refusing to install
    r"|^\s{0,4}(?:Preparing metadata|Building wheel for|Getting requirements to build wheel|Installing build dependencies)"
    r"\b.{0,120}\.\.\. error\s*$|only a placeholder project on PyPI"
    r"|^\s{0,4}[\u2022*-] (?:Installing|Updating) \S+ \([^)]{1,40}\): Failed\b"  # poetry
    # apt refusing (also inside an ansible task's JSON), yum without the package, a JSON result with a failing rc
    r"|you have held broken packages|^No package \S+ available\.|^\s{0,8}\"rc\": [1-9]\d*,?\s*$"
    # a compiler that died (killed for memory, or its own bug): "gcc: internal compiler error: Killed (program cc1plus)"
    r"|\binternal compiler error\b|\bfatal error: Killed signal terminated program\b"
    # onnxruntime refusing a session created without providers (its ValueError's message alone)
    r"|you are required to explicitly set the providers parameter"
    # the raise statement a traceback shows (its header and exception line lost from the paste)
    r"|^\s{0,8}raise [A-Z]\w{0,60}(?:Error|Exception)\("
    # ros2 launch refusing its arguments (the package was not found: the launch file was read as an argument)
    r"|^malformed launch argument '"
    # docker: an image with no build for this platform (an x86 image on a Jetson)
    r"|\bno matching manifest for \S+ in the manifest list entries"
    # the Python interpreter's own refusal to run what it was given ("/usr/bin/python3: No module named pip", "python:
    # can't open file '/app/x.py': [Errno 2] ...", "/usr/bin/python3: Error while finding module specification for
    # 'tinychat.serve.controller' (ModuleNotFoundError: No module named 'tinychat')")
    r"|^(?:\S{0,300}[/\\])?python[\d.]{0,5}(?:\.exe)?: (?:No module named |can't open file |Error while finding module)"
    # a tool refusing a subcommand it does not have ("Command 'build_opt_gpu' not found. Try 'bazel help'.", Cobra's
    # 'unknown command "x" for "y"', clap's "error: unrecognized subcommand")
    r"|^Command '[^'\s]{1,80}' not found\. Try '[^']{1,80}'|\b[Uu]nknown (?:sub)?command:? ['\"`][\w.:-]{1,80}['\"`]"
    r"|\berror: unrecognized subcommand\b"
    # a traceback flattened onto one line (quoted inline in a post): the code of the last frame, then the exception
    # (inducer/pycuda#338: "from pycuda.compyte.dtypes import (", its lint comment, then "ModuleNotFoundError: ...")
    r"|^\s*(?:from [\w.]+ import|import [\w.]+|File \"[^\"]{1,300}\", line \d+)[^\n]{0,300}?\s{2,}"
    r"(?:[\w.]+\.)?[A-Z]\w*(?:Error|Exception): \S"
    # FFmpeg refusing its input ("[yuv4mpegpipe @ 0x55f529804ac0] Invalid magic number for yuv4mpeg.", "in.mp4: Invalid
    # data found when processing input"): a decoder's per-frame "error while decoding" on a live stream is not one
    r"|^\[[\w:-]{1,40} @ 0x[0-9a-f]{4,16}\] Invalid (?:data found|magic number|argument)\b"
    r"|: Invalid data found when processing input\s*$"
    # gRPC's status of a call that failed (Go's form: "rpc error: code = Unavailable desc = connection error: ...")
    r"|\brpc error: code = (?!OK\b)[A-Z]\w+ desc = "
    # an exporter's own output check that failed (Optimum: "-[x] values not close enough, max diff: 2.65 (atol: 1e-05)")
    r"|-\[x\] values not close enough\b"
    # a backend, device or provider refusing the model ("PaddleDetection/PPYOLO is not supported with backend
    # Backend::TRT."); TensorRT's error text pasted without its "[E] ... Error Code N:" ("Internal Error (Int8 precision
    # has been set for a layer ...)")
    r"|\bis not supported (?:with|by|on) (?:the )?(?:backend|device|provider)\b|^Internal Error \("
    # PyTorch on a GPU its build has no kernels for (RTX 50 with a wheel before CUDA 12.8)
    r"|with CUDA capability sm_\d+ is not compatible with the current PyTorch installation"
)
"""A failure on a line with no severity tag at all (a tagged info or warning line may say such words
harmlessly: "[W] Could not read timing cache", "[V] Tactic ... failed")."""


ERROR_MARKERS = ("[E]", "[F]", "[!]", "ERROR", "Error", "error:", "Traceback", "Exception", "Assertion",
                 "FAILED", "terminate called", "INTERNAL_ERROR", "failed", "Failed",
                 # crashes and loader errors (`_PAYLOAD_ERROR`), failure words on untagged lines
                 "Segmentation fault", "core dumped", "Aborted", "Bus error", "Illegal instruction",
                 "Floating point exception", "signal", "Fatal Python", "SIGSEGV", "SIGABRT",
                 "\u6bb5\u9519\u8bef", "\u6838\u5fc3\u5df2\u8f6c\u50a8", "\u5df2\u653e\u5f03", "\u9519\u8bef",
                 "Unhandled exception at", "\u672a\u7ecf\u5904\u7406\u7684\u5f02\u5e38", "\u8fd4\u56de\u503c\u4e3a", "-NOTFOUND",
                 "[Errno ", "[WinError ", "not found", "format error", "no GPU", "no CUDA", "no NVIDIA", "no device",
                 "==ERROR==", "==FATAL==",
                 "Fehler", "erreur", "\u043e\u0448\u0438\u0431\u043a\u0430", "\u30a8\u30e9\u30fc", "errore",
                 "undefined symbol", "symbol lookup error", "cannot open shared object", "error while loading shared",
                 "UNAVAILABLE", "ONNXRuntimeError", "EP Error", "Could not", "could not", "Unable to", "unable to",
                 "Cannot", "cannot", "Can not", "can not", "Couldn't", "couldn't", "Can't", "can't",
                 "export failure", "Killed", "\u274c", "no matches found", "cannot proceed because", "can't start because",
                 "None of the required", "***Failed", "***Exception", "***Timeout", "MPI_ABORT",
                 "does not contain a CMakeLists.txt", "Unknown CMake command", "Invalid escape sequence", ") received.",
                 "ptxas", "know how to",
                 "EnforceNotMet", "<frozen ", ".py(",
                 "Exception during initialization", "Access violation", "Unsupported ONNX data type", "Falling back to",
                 "Difference exceeds tolerance", "Invalid argument", "InvalidArgument", "NotFound", "Unavailable",
                 "PreconditionNotMet", "Unimplemented", "ResourceExhausted", "CMake Error", "Configuring incomplete",
                 "Internal: ", "relocation error", "[error]", "[critical]", "SystemExit", "KeyboardInterrupt",
                 "fatal exception", "NCCL error", "undefined reference", "has been aborted", "Parameter check failed",
                 "Unhandled exception", "Exception Type", "execution stopped", "[E:onnxruntime", "[F:onnxruntime",
                 "Invalid Node", "rpc error", "values not close enough", "is not supported",
                 "erroneous pipeline", "traps: ", "segfault at", "IMPORT FAILED", "unexpected keyword argument",
                 "thrown in the test body", "FAILURE", "have volume",
                 "Cannot start service", "Unsupported model", "Unsupported file", "Unsupported binary",
                 "Unsupported format", "Unsupported data", "in this build", "connection error: desc",
                 "has no attribute", "is not callable", "is not subscriptable", "positional argument",
                 "required keyword-only", "No such file", "gpu device", "GPU device", "cuda device", "CUDA device",
                 "vulkan device", "Vulkan device",
                 "Failure:", "Uncaught", "Assert on", "killed", "Unknown encoder", "NV_ENC_ERR_", "nvidia-container-cli: ",
                 "VersionConflict", "no such option", "No solution found", "status 'error'", "is too low", "attempt ",
                 "has crashed", ".py FAILED",
                 "FATAL:", "ERROR  :",
                 # "No onnxruntime backend found." (`_UNTAGGED_FAILURE`)
                 *(f"{noun}{plural} {verb}" for noun in ("backend", "provider", "runtime", "driver", "device", "GPU")
                   for plural in ("", "s") for verb in ("found", "available", "detected")),
                 ": E ", ": F ",  # TensorFlow's E and F lines
                 "error C", "error LNK", "error MSB",  # MSVC, its linker, MSBuild
                 "Error response from daemon",
                 "Check failure stack trace", "what():", "Could NOT find", "Errors ", "Cuda error", "Cuda failure", "statusCode",
                 "status_code", "unmet dependencies", "is not available, but", "Invalid", "ResolvePackageNotFound",
                 "Unsatisfiable", "Result = FAIL", "\uc624\ub958",
                 # level fields elsewhere in the line, JSON error objects (`_LEVEL_FIELD`)
                 "|error", "|fatal", "=error", "=fatal", "\"error\"", "\"fatal\"", "{\"err", "[fatal]",
                 # native calls, CUDA's error names, exit codes, glibc's heap checks, NTSTATUS names
                 "_STATUS_", "exit code", "exit status", "with code", "with status", "returned", "free(): ",
                 "malloc(): ", "malloc_consolidate", "double free", "corrupted ", "munmap_chunk", "stack smashing",
                 "*** Error in", "\u672a\u5b9a\u4e49\u7684\u5f15\u7528", "yanked version", ": *** ", "() failed",
                 "GstMessageError", "Bad node spec",
                 "Process received signal", "Signal: ", "OP_REQUIRES", "C++ Call Stacks", "C++ Traceback", "make: ***",
                 "make[", "ninja: ***", "rguments", "nvalid option", "nknown option", "nknown flag", "nrecognized",
                 "rror occurred", "rror occured", "rror has occurred", "rror happened", "mismatch", "error CS",
                 "No such file or directory", "Permission denied", "command not found", ": not found",
                 "not recognized", "wrong format", "nothing provides", "failed ", "FAILED ", "Problem: ", "nvcc ",
                 "OpenCV(", "Something went wrong",
                 "Client Error", "Server Error", "Not Found for url",
                 ": Is a directory", ": Not a directory", "cannot execute", "definitely lost", "possibly lost", "Leaked ",
                 "Program hit ", "Mismatched free", "Conditional jump", "had error: ", "had an error: ", "! Exiting",
                 "! Aborting", "! Quitting", ", needed by ", "Not equal to tolerance", "Mismatched elements", " mismatch)",
                 "error", "non-zero", "unauthorized", "denied", "manifest unknown", "nvalid", "\u00d7 ",
                 "\u2717 ", "\u2718 ", "\u274c ", "E   ", "E\t", "AssertionError", "Attempt to ",
                 "Exit code:", "Exit status:", "Invalid ", "FATAL", "CRITICAL",
                 "STATUS_", " E0", " E1", " F0", " F1",  # the last four: glog in the middle of a pasted line
                 "Errors were encountered", "docker: ", "bin/ld: ", "-ld: ", "internal or external command",
                 "Main process exited", "static TLS block", ".exc.", "exceptions.", "HTTP/", "No devices to flash",
                 "uncaught exception", "No package ", "CUDA failure", "build constraints exclude", "curl: (",
                 "An error has been caught", "\u5f02\u5e38\u4ee3\u7801",
                 # zsh's job reports, Click's usage error, PyTorch's load_state_dict
                 "raise ", "internal compiler error", "Killed signal", "malformed launch argument", "providers parameter",
                 "placeholder project", "): Failed", ": No module named ", ": can't open file ", "nknown command",
                 "nknown subcommand",
                 "held broken packages", "No package ", "\"rc\": ",
                 "no matching manifest",
                 "is not compatible with the current PyTorch",
                 " killed ", "segmentation fault", " abort ", "bus error", "floating point exception",
                 "illegal hardware instruction", "for help", "size mismatch for", "key(s) in state_dict",
                 "\u4e0d\u662f\u5185\u90e8\u6216\u5916\u90e8\u547d\u4ee4", "#assertion",
                 "X Error of failed request", "not created successfully", "multiple definition of",
                 "original error: ", "not built successfully",
                 "not installed successfully", "not loaded successfully", "not completed successfully", "(hex 0x",
                 "ExceptionCode: c0000",
                 "o such file or directory", "ermission denied", "pkg-config search path", " NOT FOUND", " NOT found",
                 " NOT Available", " NOT available", ".py::", " | >>> ", "_NOT_FOUND", "_FAILED", "_FAILURE", "_ERROR",
                 "_INVALID", "_NOT_DETECTED", "_UNAVAILABLE", "# gsignal in", "# abort in", "# raise in",
                 "# __GI_", "# __pthread_kill", "Stack trace (most recent call last)", "RetAddr", " at ??:?",
                 "\u6ca1\u6709\u90a3\u4e2a\u6587\u4ef6\u6216\u76ee\u5f55",
                 "\u305d\u306e\u3088\u3046\u306a\u30d5\u30a1\u30a4\u30eb",
                 "\uadf8\ub7f0 \ud30c\uc77c\uc774\ub098")
"""Literals of which every error line (`is_error_line` after `payload_level`) holds one:
lines with none of them (and no KB or environment literal) are never looked at by the matcher: keep
them in step with the regexes above (tests/core/test_logs.py checks every failure wording it knows)."""
MARKER_PATTERNS = (r"^[EF](?:\d{4}|\d{8}) \d",  # glog / Triton error lines
                   r"^E: [A-Z]",  # apt's errors
                   r"^ld(?:\.gold|\.lld|\.bfd)?: ",  # the linker's lines (any language; "/usr/bin/ld: " is a literal)
                   r"^#\d+\s+0x[0-9a-f]{6}",  # frames of a native stack trace (gdb's bt)
                   r"^(?:C|LNK|MSB)\d{4}\t")  # Visual Studio's error list, copied
"""Lines to look at that hold no literal. Keep them short and without a repeat before a literal part: Hyperscan
(SOM_LEFTMOST) crashed the process scanning a marker that began `^(?:\\S*/)?ld` (kb test, 2026-11-28)."""


TRACEBACK_WINDOW = 400
"""Lines between a traceback's header and its exception line for the one to stand for the other."""


def is_traceback_header(text: str) -> bool:
    """Is this a Python traceback's header line ("Traceback (most recent call last):"), its wrapper removed?"""
    return _TRACEBACK.match(text) is not None


def ends_traceback(header: LogLine, line: LogLine) -> bool:
    """`line` is the exception line that closes the traceback `header` opened: the line that names the
    error, which leads the report instead of "Traceback (most recent call last):" (or C++'s `what():` line
    after "terminate called after throwing an instance of ...")."""
    gap = line.no - header.no
    if _TRACEBACK.match(header.text) is not None:
        return 0 < gap <= TRACEBACK_WINDOW and _EXCEPTION.match(line.text) is not None
    return 0 < gap <= 2 and _TERMINATE.match(header.text) is not None and _WHAT.match(line.text) is not None


def strip_ansi(text: str) -> str:
    """Remove ANSI colour and cursor codes, terminal escape strings and other control characters (tabs stay)."""
    if text.isprintable() or _CONTROL.search(text) is None:  # printable: no control character at all
        return text
    return _CONTROL.sub("", _ANSI.sub("", text))


def parse_line(no: int, raw: str) -> LogLine:
    """Recognise wrappers and the severity of one line (without its line ending)."""
    level, origin, text, raw = parse_parts(raw)
    return LogLine.model_construct(no=no, level=level, origin=origin, text=text, raw=raw)


_REMEMBERED_PAYLOAD_LITERALS: list[list[str]] = []
"""`payload_error_literals()` as the KB cache kept it (`remember_payload_literals`): a run then reads no regex for it."""


def payload_error_literals() -> list[str] | None:
    """Literals of which every match of `_PAYLOAD_ERROR` holds one (None: none can be derived), so that a warning line
    is searched only when it holds one. Deriving them reads the pattern (about 20 ms): the KB cache keeps them."""
    if _REMEMBERED_PAYLOAD_LITERALS:
        return _REMEMBERED_PAYLOAD_LITERALS[0]
    from troubleshooter.core.regexes import derive_literals

    # 3 characters: the shell's Chinese "段错误" / "已放弃" are as rare as any longer literal
    return derive_literals(_PAYLOAD_ERROR.pattern, 3)


def remember_payload_literals(literals: list[str]) -> None:
    """Take `payload_error_literals()` as derived earlier by this very code (the KB cache's key covers core/)."""
    _REMEMBERED_PAYLOAD_LITERALS[:] = [list(literals)]


_RuleMeta = tuple[str | None, _RuleOrigin | None, bool]
"""A rule's level group (or None), its origin, whether its level overrides one read before."""
Rules = tuple[dict[str, re.Pattern[str]], Callable[[str], re.Pattern[str]], dict[str, _RuleMeta]]


DISPATCH_AFTER = 2048
"""Steps of prefix reading (a line takes one per wrapper) that try every rule, before the rules are sorted
by the characters a match can start with (read from each regex, once per character met): a log that
short never pays for reading the rules."""


def _combined_rules(dispatch_after: int = DISPATCH_AFTER) -> Rules:
    """`_RULES` as one alternation, matched in place once per step instead of rule by rule.

    An alternation returns its first alternative that matches: the first rule, in order. Matching in
    place (at a position, not on a slice) is the same only for rules that never look behind their
    start, and the loop stops at an empty match: so a rule must consume at least one character and
    may not use `^`, `\\b`, `\\A` or look-behinds (tests/core/test_logs.py reads each rule's regex).
    The rules are kept as source text: compiling each on its own costs start-up ~3 ms.

    After `dispatch_after` steps, a character at hand gets the alternation of only the rules that can
    start with it (in order, so the same first matching rule, with fewer branches to fail on); other
    characters (and non-ASCII ones) keep the whole alternation. Each is compiled the first time a line
    needs it.
    """
    parts: list[str] = []
    meta: dict[str, _RuleMeta] = {}
    for i, (src, origin, overrides) in enumerate(_RULES):
        reads_level = "(?P<lvl>" in src
        parts.append(f"(?P<r{i}>" + src.replace("(?P<lvl>", f"(?P<lvl_{i}>") + ")")
        meta[f"r{i}"] = (f"lvl_{i}" if reads_level else None, origin, overrides)
    everything = tuple(range(len(_RULES)))
    by_rules: dict[tuple[int, ...], re.Pattern[str]] = {}
    dispatch: dict[str, re.Pattern[str]] = {}
    steps = 0

    def alternation(chosen: tuple[int, ...]) -> re.Pattern[str]:
        pattern = by_rules.get(chosen)
        if pattern is None:
            pattern = by_rules[chosen] = re_compile("|".join(parts[i] for i in chosen) or "(?!)")
        return pattern

    def bucket(ch: str) -> re.Pattern[str]:
        nonlocal steps
        if steps < dispatch_after:
            steps += 1
            return alternation(everything)
        if len(ch) == 1 and " " <= ch <= "~":
            from troubleshooter.core.regexes import can_start

            chosen = tuple(i for i in everything if can_start(_RULES[i][0], ch))
        else:
            chosen = everything
        pattern = dispatch[ch] = alternation(chosen)
        return pattern

    return dispatch, bucket, meta


def _make_parser(dispatch_after: int = DISPATCH_AFTER) -> Callable[[str], tuple[Level | None, Origin | None, str, str]]:  # noqa: C901, PLR0915  # the per-line hot path, everything bound once
    """The body of `parse_parts`, with everything it uses bound once."""
    dispatch, bucket, by_name = _combined_rules(dispatch_after)
    first_char = dispatch.get
    max_chars = MAX_LINE_CHARS
    words = _LEVEL_WORDS
    bare = _BARE_LEVEL.match
    traceback_, terminate, exception = _TRACEBACK.match, _TERMINATE.match, _EXCEPTION.match
    level_field = _LEVEL_FIELD.search
    brackets = _BRACKETED_FIELDS.match
    payload = _PAYLOAD_ERROR.search
    error, warning, info = Level.ERROR, Level.WARNING, Level.INFO
    payload_literals: list[str] | None = None  # every match of _PAYLOAD_ERROR holds one (derived on first use)
    derived = False

    def parse(raw: str) -> tuple[Level | None, Origin | None, str, str]:  # noqa: C901, PLR0912  # kept in one frame on purpose (measured)
        nonlocal payload_literals, derived
        if len(raw) > max_chars:
            raw = raw[:max_chars]
        raw = raw.rstrip("\r\n")
        if "\r" in raw:  # progress bars and stray carriage returns: keep what was last drawn
            parts = [p for p in raw.split("\r") if p.strip()]
            raw = parts[-1] if parts else ""
        raw = strip_ansi(raw)
        rest = raw.lstrip("\ufeff ")
        level = None
        origin = None
        pos = 0
        for _ in range(8):
            c = rest[pos:pos + 1]
            m = (first_char(c) or bucket(c)).match(rest, pos)
            if m is None or m.end() == pos:
                break
            lvl_group, rule_origin, overrides = by_name[m.lastgroup]  # type: ignore[index]
            if lvl_group is not None:
                lvl = m.group(lvl_group)
                if lvl:
                    new = words.get(lvl.upper())
                    if new is not None and (level is None or overrides):
                        level = new
            if rule_origin and (origin is None or origin in ("trt", "docker")):
                origin = rule_origin
            pos = m.end()
        if pos:
            rest = rest[pos:]
        if level is None:
            m = bare(rest)
            if m:
                level = words[m.group("lvl").upper()]
                rest = rest[m.end():]
            elif traceback_(rest) or terminate(rest) or exception(rest):
                level = error
                origin = origin or "traceback"
            elif rest[:1] == "[" and (mb := brackets(rest)) is not None and exception(rest, mb.end()):
                # behind bracketed fields no rule knows: "[2020-11-09 21:15:36.127] [pid 314:tid 1400] TimeoutError: ..."
                level = error
                origin = origin or "traceback"
                rest = rest[mb.end():]
            elif "\\n" in rest and any(exception(piece.strip()) for piece in rest.split("\\n")):
                level = error  # a repr'd message pasted as one line: "In user code:\n\n    InvalidArgumentError: ..."
                origin = origin or "traceback"
            else:
                m = level_field(rest)
                if m is not None:
                    found = m.lastgroup
                    level = error if found in _ERROR_OBJECTS else words.get((m.group(found) or "").upper())  # type: ignore[arg-type]
        if origin == "trt":
            origin = "python" if raw.lstrip().startswith("[TRT]") or "] [TRT] [" in raw else "trtexec"
        text = rest.strip()
        if level is None or level is info:
            level = payload_level(level, text)
        elif level is error and _NOTICE_UNDER_ERROR.search(text):
            level = warning  # a tool's notice that its own error tag overstates
        elif level is warning:
            if not derived:
                payload_literals, derived = payload_error_literals(), True
            # the literals every error payload holds screen the line before the regex runs
            if ((payload_literals is None or any(lit in text for lit in payload_literals))
                    and payload(text) and not _NOTICE_UNDER_ERROR.search(text)):
                level = error
        return level, origin, text, raw

    return parse


parse_parts: Callable[[str], tuple[Level | None, Origin | None, str, str]] = _make_parser()
"""`parse_line` as (level, origin, text, raw), without building the model (the matcher's hot path)."""


_NOTICE_UNDER_ERROR = re_compile(
    r"pip's dependency resolver does not currently take into account all the packages"
    r"|failed to enable peer access for some device pairs"
    # TensorRT dropping a tactic that cannot implement the layer and going on (ONNX Runtime's provider logs TensorRT
    # 10's "Error Code: 9: Skipping tactic 0x... due to exception canImplement1" at ERROR on builds that succeed);
    # a tactic that failed to run (Cask execution, misaligned address) stays an error
    r"|\bSkipping tactic \S+ due to (?:exception )?canImplement\d*\b"
    # TensorRT 5-7's markOutput on a tensor already marked (the output stays an output)
    r"|\bTensor \S+ ?is already set as output\b"
    # TF-TRT's empty engine cache before build(): the engines are built at run time ("Could not find TRTEngineOp_0 in
    # TF-TRT cache. This can happen if build() is not called")
    r"|OP_REQUIRES failed at trt_engine_resource_ops\S* : Not found: Container TF-TRT does not exist"
    # Torch-TensorRT 2.4/2.5 logging its platform tag at ERROR when the runtime loads ("ERROR: [Torch-TensorRT] -
    # linux_x86_64" on every run; removed as confusing by pytorch/TensorRT#3150)
    r"|^(?:linux|windows)_(?:x86_64|aarch64|sbsa|amd64)\s*$"
    # FFmpeg's loader on Windows when an app probes for NVENC / NVDEC on a PC without NVIDIA's driver (HandBrake at every
    # start, first-sight batch 35): the app goes on with another encoder; library-load-failure reads it when opening the
    # encoder then fails
    r"|^Cannot load (?:nvEncodeAPI64|nvcuvid)\.dll\s*$"
    # mkdir without -p of a folder that exists
    r"|^mkdir: cannot create directory .{1,300}: File exists\s*$")
"""A notice in error words that reports no failure: under an error tag it is a warning, and its words do not make an
untagged or warning line an error. pip prints its "ERROR:" after an install that succeeded, before the conflicts it
lists (the conflicting versions may matter, the install itself did not fail); Triton logs at E, and goes on, when GPUs
of one machine cannot reach each other's memory; the others as commented."""
_CMAKE_STATUS = re_compile(r"^-- [\w .+/-]{1,60}: not found\s*$")
"""CMake's message(STATUS ...) about an optional tool ("-- ccache: not found"): no failure by itself; a required one
fails the configure step in its own words (CMake Error, -NOTFOUND, "Configuring incomplete")."""


_INFO_ERROR = re_compile(
    # Ultralytics logs "TensorRT: export failure ..." at INFO; a traceback flattened into an info line
    r"export failure|Traceback \(most recent call last\):|" + _NAMED_FAILURE
)
"""The few payloads that are errors even under an info tag (a wrapper logging another's failure at its info level)."""


@functools.lru_cache(maxsize=4096)  # the same untagged lines come back in every run of a multi-run log
def payload_level(level: Level | None, text: str) -> Level | None:
    """The level a line's payload gives it: severity tags lie. An error payload under a warning tag
    (wrappers) or with no tag is an error; so are failure words on a line with no tag at all."""
    if level is None:
        if ((_PAYLOAD_ERROR.search(text) or (_UNTAGGED_FAILURE.search(text) and not _FALLBACK.search(text)
                                             and not _CMAKE_STATUS.match(text) and not _WARN_CALL.match(text)))
                and not _NOTICE_UNDER_ERROR.search(text)):
            return Level.ERROR
    elif ((level is Level.WARNING and _PAYLOAD_ERROR.search(text) and not _NOTICE_UNDER_ERROR.search(text))
          or (level is Level.INFO and _INFO_ERROR.search(text))):
        return Level.ERROR
    return level


LEVEL_FLOOR: dict[LineLevel, int] = {"any": -1, "warning": Level.WARNING.rank, "error": Level.ERROR.rank}
"""A signature's `level` as the lowest line level rank it accepts."""


def level_ok(line_level: Level | None, required: LineLevel) -> bool:
    """Does a line of this level satisfy a signature's `level` (any, warning, error)? A line without
    a level always does."""
    return line_level is None or line_level.rank >= LEVEL_FLOOR[required]


_DECORATION = re_compile(r"[\s^~=*#|+.-]*$")
"""A line of marks only (Python's `^^^^` under a frame, a rule of dashes), which a logger tags like the lines around it."""


def is_error_line(line: LogLine) -> bool:
    """An error line that deserves an explanation (not a line of marks under an error tag)."""
    return (line.level is not None and line.level.rank >= Level.ERROR.rank and bool(line.text)
            and _DECORATION.match(line.text) is None)


def decode_line(data: bytes) -> str:
    """UTF-8, else latin-1 (never fails)."""
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return data.decode("latin-1")
