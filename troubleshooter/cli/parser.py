"""`trt-why`'s one argparse parser: a subcommand per way in; `diagnose` is the default.

The whole parser is declared here (`build_parser`) and imports nothing heavy: each command's code lives
in its own module of `troubleshooter.cli` and is imported only when that command runs. The choices come
from their one list: formats from `render.formats`, platforms from `models.PLATFORMS` (read only when
shown or checked), matchers checked by the API. A log named like a command is still diagnosed:
`trt-why ./tui`, `trt-why -- tui`, or `trt-why tui` when ./tui is a file and nothing follows
(`command_argv`).
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable, Iterator, Sequence
from typing import Any, NoReturn

from troubleshooter import exit_codes
from troubleshooter.render import formats

Command = Callable[[argparse.Namespace], int]


def exit_codes_help(found: str | None = "the log shows a failure, or a warning diagnosis (--exit-zero: 0)",
                    ok: str = "analysed: no failure, nothing of severity error or warning") -> str:
    """The `Exit codes:` block of a --help (the README lists the same); `found` None: the command never exits 1."""
    return (f"Exit codes:\n  {exit_codes.OK:<4} {ok}\n"
            + (f"  {exit_codes.FOUND:<4} {found}\n" if found is not None else "")
            + f"  {exit_codes.ERROR:<4} usage or input error (one line on stderr)\n"
            f"  {exit_codes.INTERRUPTED:<4} interrupted (Ctrl+C)\n")


# -- the parser -------------------------------------------------------------------------------------

class _Platforms(Sequence[str]):
    """`models.PLATFORMS`, read when argparse shows or checks `--platform`: building the parser does not
    import the models (pydantic: start-up time that `trt-why kb` or `trt-why lint --help` need not spend)."""

    @staticmethod
    def _all() -> tuple[str, ...]:
        from troubleshooter.models import PLATFORMS

        return PLATFORMS

    def __getitem__(self, i: Any) -> Any:
        return self._all()[i]

    def __len__(self) -> int:
        return len(self._all())

    def __iter__(self) -> Iterator[str]:
        return iter(self._all())

    def __contains__(self, value: object) -> bool:
        return value in self._all()


def version() -> str:
    """The installed distribution's version (`troubleshooter.__version__`, read from the package metadata)."""
    import troubleshooter

    return troubleshooter.__version__


class _Version(argparse.Action):
    """`--version`: the version is read from the package metadata only when asked (start-up stays light)."""

    def __init__(self, option_strings: Sequence[str], dest: str, help: str | None = None) -> None:
        super().__init__(option_strings, dest, nargs=0, default=argparse.SUPPRESS, help=help)

    def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace, values: object,
                 option_string: str | None = None) -> NoReturn:
        sys.stdout.write(f"trt-why {version()}\n")
        parser.exit()


def _choices(values: Sequence[str]) -> str:
    return "|".join(values)


def _kb_dirs(p: argparse.ArgumentParser | argparse._ArgumentGroup) -> None:
    p.add_argument("--kb", action="append", default=[], metavar="DIR", help="extra KB folder (repeatable)")


def _diagnose_options(p: argparse.ArgumentParser | argparse._ArgumentGroup) -> None:
    report_formats = formats.names("report")
    p.add_argument("-f", "--format", choices=report_formats, default=None,
                   help=f"{_choices(report_formats)} (default: text)")
    p.add_argument("--chat", choices=tuple(formats.CHAT_LIMITS),
                   help="Markdown sized for a chat (implies --format markdown)")
    p.add_argument("--trt-version", metavar="X", help="TensorRT version, when the log does not say (e.g. 8.6.1)")
    p.add_argument("--platform", choices=_Platforms(), help="where TensorRT runs, when the log does not say")
    p.add_argument("--model", metavar="ONNX", help="confirm the diagnosis on the ONNX model (needs trt-why[lint])")
    _kb_dirs(p)
    p.add_argument("--exit-zero", action="store_true", help="exit 0 even when a failure is found")
    p.add_argument("--redact", action="store_true", help="hide user names, paths, hosts and IPs in evidence")
    p.add_argument("--redact-names", action="store_true", help="also hide node and tensor names")
    p.add_argument("--no-color", action="store_true",
                   help="no ANSI colours (also NO_COLOR=1; FORCE_COLOR=1 colours a pipe too)")
    p.add_argument("-v", "--verbose", action="store_true", help="show every diagnosis in full")
    p.add_argument("--matcher", default=None, help=argparse.SUPPRESS)  # auto|python|hyperscan, checked by the API
    p.add_argument("--no-progress", action="store_true", help="no progress bar on stderr")


class _RawFormatter(argparse.RawDescriptionHelpFormatter):
    """argparse's raw-description formatter, told the width instead of asking shutil for it: argparse makes a
    formatter for every option it declares, and importing shutil (with bz2, lzma and zlib) cost every one-shot run
    ~6 ms (benchmarks/bench_startup.py). The width is the one shutil.get_terminal_size gives argparse."""

    def __init__(self, prog: str, indent_increment: int = 2, max_help_position: int = 24, width: int | None = None,
                 **kwargs: Any) -> None:
        super().__init__(prog, indent_increment, max_help_position, _help_width() if width is None else width,
                         **kwargs)


def _help_width() -> int:
    """COLUMNS, else the terminal's width, else 80, less the 2 columns argparse keeps (shutil's rule, as argparse
    uses it)."""
    try:
        columns = int(os.environ.get("COLUMNS", "0"))
    except ValueError:
        columns = 0
    if columns <= 0:
        try:
            columns = os.get_terminal_size(sys.__stdout__.fileno()).columns  # type: ignore[union-attr]
        except (AttributeError, ValueError, OSError):
            columns = 0
    return (columns if columns > 0 else 80) - 2


_DESCRIPTION = "Why did my TensorRT build fail? Reads a log, answers with the cause, the proof and the fix."


def build_parser(command: str | None = None) -> argparse.ArgumentParser:
    """`trt-why`'s one parser: a subparser per command (`COMMANDS`); `args.run(args)` runs the command.

    `command`: declare only the arguments of the command of that name, if any (main() parses one command:
    the others' need not be declared, nor their modules imported); None: every command's."""
    root = argparse.ArgumentParser(
        prog="trt-why",
        usage="trt-why [options] LOG [LOG ...]        diagnose logs ('-' for stdin)\n"
              "       trt-why COMMAND [options] ...     (trt-why COMMAND --help)",
        description=_DESCRIPTION,
        epilog="A log named like a command: trt-why ./tui (or trt-why -- tui).\n\n" + exit_codes_help(),
        formatter_class=_RawFormatter,
    )
    root.add_argument("-V", "--version", action=_Version, help="print trt-why's version and exit")
    # What `trt-why LOG` takes, shown here and parsed by `diagnose` (main() puts the command in front).
    shown = root.add_argument_group("options of diagnose (the default command)")
    _diagnose_options(shown)
    for action in shown._group_actions:
        action.default = argparse.SUPPRESS
    sub = root.add_subparsers(dest="command", metavar="COMMAND", title="commands")
    for name, (about, declare) in COMMANDS.items():
        # diagnose is the default command: its usage is `trt-why [options] LOG`.
        prog = "trt-why" if name == "diagnose" else f"trt-why {name}"
        p = sub.add_parser(name, prog=prog, help=about, formatter_class=_RawFormatter)
        p.set_defaults(parser=p)
        if command is None or command == name:
            declare(p)
    return root


def _diagnose_parser(p: argparse.ArgumentParser) -> None:
    p.description, p.epilog = _DESCRIPTION, exit_codes_help()
    p.set_defaults(run=_lazy("troubleshooter.cli.diagnose:run"))
    p.add_argument("logs", nargs="*", metavar="LOG", help="log files (.gz ok); '-' for stdin (the default)")
    _diagnose_options(p)


def _tui_parser(p: argparse.ArgumentParser) -> None:
    p.description = "Walk through causes, version advice and fixes (`trt-why` alone on a terminal opens it too)."
    p.epilog = exit_codes_help(None, ok="the app was closed")
    p.set_defaults(run=_lazy("troubleshooter.cli.tui:run"))
    p.add_argument("log", nargs="?", help="a log to open")
    p.add_argument("--model", help="an ONNX model to lint")
    p.add_argument("--trt-version", metavar="X", help="TensorRT version, when the log does not say")


def _lint_parser(p: argparse.ArgumentParser) -> None:
    p.description = "TensorRT-aware checks of an ONNX model."
    p.epilog = exit_codes_help("a finding of level error or warning (--exit-zero: 0)",
                               ok="no finding of level error or warning")
    p.set_defaults(run=_lazy("troubleshooter.cli.lint:run"))
    p.add_argument("model", nargs="?", help="the .onnx file")
    p.add_argument("--list-rules", action="store_true", help="print the rule ids and exit")
    lint_formats = formats.names("lint")
    p.add_argument("-f", "--format", choices=lint_formats, default="text", help=f"{_choices(lint_formats)} (default: text)")
    p.add_argument("--trt-version", metavar="X", help="target TensorRT version (selects version-dependent rules)")
    p.add_argument("--polygraphy", action="store_true", help="also run `polygraphy check lint` and merge")
    p.add_argument("--input-shapes", nargs="+", default=[], metavar="NAME:[D,...]",
                   help="shapes of dynamic inputs for --polygraphy, e.g. images:[1,3,640,640]")
    p.add_argument("--exit-zero", action="store_true", help="exit 0 even when a finding is an error or warning")


def _scan_parser(p: argparse.ArgumentParser) -> None:
    from troubleshooter.cli.scan import LOG_PATTERNS, TOP_UNEXPLAINED

    p.description = ("Diagnose many logs at once: one JSON line per log, then a summary (classification rate, "
                     "families, the unexplained error lines seen most often).")
    p.epilog = exit_codes_help("a log has an error or warning diagnosis (--exit-zero: 0)",
                               ok="no log has an error or warning diagnosis")
    p.set_defaults(run=_lazy("troubleshooter.cli.scan:run"))
    p.add_argument("targets", nargs="+", metavar="DIR_OR_GLOB", help="folders (searched recursively), files or globs")
    p.add_argument("-j", "--jobs", type=int, default=0, help="worker processes (default: one per core)")
    fleet_formats = formats.names("fleet-summary")
    p.add_argument("-f", "--format", choices=fleet_formats, default="jsonl",
                   help=f"{_choices(fleet_formats)} (default: jsonl)")
    p.add_argument("--pattern", action="append", metavar="GLOB",
                   help=f"file names to take from folders (repeatable; default {' '.join(LOG_PATTERNS)})")
    _kb_dirs(p)
    p.add_argument("--trt-version", metavar="X", help="TensorRT version for logs that do not say")
    p.add_argument("--top", type=int, default=TOP_UNEXPLAINED, help="unexplained lines listed in the summary")
    p.add_argument("--no-progress", action="store_true", help="no progress bar on stderr")
    p.add_argument("--exit-zero", action="store_true", help="exit 0 even when a log has an error or warning diagnosis")
    p.add_argument("--matcher", default=None, help=argparse.SUPPRESS)  # auto|python|hyperscan, checked by the API


def _eval_parser(p: argparse.ArgumentParser) -> None:
    p.description = "Measure the KB on labelled logs."
    p.epilog = exit_codes_help("a log's expectation is not met", ok="every expectation met")
    p.set_defaults(run=_lazy("troubleshooter.cli.eval:run"))
    p.add_argument("dir", help="folder of NAME.log files with NAME.expect.yaml expectations")
    eval_formats = formats.names("eval")
    p.add_argument("-f", "--format", choices=eval_formats, default="text", help=f"{_choices(eval_formats)} (default: text)")
    _kb_dirs(p)
    p.add_argument("--glob", default="*", help="only logs whose name matches, e.g. 'h-*'")


def _mcp_parser(p: argparse.ArgumentParser) -> None:
    p.description = "Serve trt-why over the Model Context Protocol."
    p.epilog = exit_codes_help(None, ok="the server stopped")
    p.set_defaults(run=_lazy("troubleshooter.cli.mcp:run"))
    p.add_argument("--http", metavar="HOST:PORT", help="streamable HTTP instead of stdio (e.g. 127.0.0.1:8765)")
    p.add_argument("--allow-dir", action="append", default=[], metavar="DIR",
                   help="folders whose ONNX models lint_onnx_model may read (none by default)")


def _kb_parser(p: argparse.ArgumentParser) -> None:
    p.description = "The knowledge base of known TensorRT failures."
    p.epilog = exit_codes_help("validate or test found a problem", ok="done")
    p.set_defaults(run=_kb_help)
    _kb_dirs(p)
    p.add_argument("--strict", action="store_true", help="fail on the first invalid entry")
    sub = p.add_subparsers(dest="kb_command", metavar="COMMAND")

    def command(name: str, run: Command, about: str) -> argparse.ArgumentParser:
        q = sub.add_parser(name, prog=f"trt-why kb {name}", help=about, description=about[0].upper() + about[1:] + ".")
        q.set_defaults(run=run)
        return q

    q = command("list", _lazy("troubleshooter.cli.kb:kb_list"), "every entry: id, severity, title")
    q.add_argument("-f", "--format", choices=("text", "json"), default="text")
    q = command("show", _lazy("troubleshooter.cli.kb:kb_show"), "one entry in full, as a report shows it")
    q.add_argument("id")
    q.add_argument("-f", "--format", choices=("text", "markdown", "yaml", "json"), default="text",
                   help="text (default: as a report words it), markdown, yaml (the file as written) or json")
    q.add_argument("--no-color", action="store_true", help="no ANSI colours (also NO_COLOR=1)")
    command("validate", _lazy("troubleshooter.cli.kb:kb_validate"), "schema, conventions, regex safety, scaffolds left unedited")
    q = command("test", _lazy("troubleshooter.cli.kb:kb_test"), "run every entry's examples")
    q.add_argument("ids", nargs="*", help="only these entries")
    q = command("explain", _lazy("troubleshooter.cli.kb:kb_explain"), "why an entry did or did not match a log")
    q.add_argument("id")
    q.add_argument("log")
    q.add_argument("--trt-version", metavar="X")
    q = command("new", _lazy("troubleshooter.cli.kb:kb_new"), "scaffold a new entry")
    q.add_argument("id")
    q.add_argument("--dir", default="kb", help="folder to write it in (default: ./kb)")
    command("schema", _lazy("troubleshooter.cli.kb:kb_schema"), "print the JSON Schema of an entry")


COMMANDS: dict[str, tuple[str, Callable[[argparse.ArgumentParser], None]]] = {
    "diagnose": ("diagnose logs: the cause, the proof, the fix (the default: `trt-why build.log`)", _diagnose_parser),
    "tui": ("the Textual app: walk through causes, version advice and fixes", _tui_parser),
    "lint": ("TensorRT-aware checks of an ONNX model", _lint_parser),
    "scan": ("many logs at once (CI farms): one JSON line per log, then a summary", _scan_parser),
    "eval": ("measure the KB on labelled logs", _eval_parser),
    "kb": ("the knowledge base: list, show, validate, test, explain, new, schema", _kb_parser),
    "mcp": ("serve trt-why over the Model Context Protocol", _mcp_parser),
}
"""The subcommands, in the order `trt-why --help` lists them: what each does, and the function declaring its
arguments (and `run`, the function that runs it; imported when it runs). A new command is one entry here."""


# -- the commands: each imports its module when it runs --------------------------------------------

def _lazy(target: str) -> Command:
    """The command "module:function", imported when it runs (the one-shot diagnose path stays small)."""
    module, name = target.split(":")

    def run(args: argparse.Namespace) -> int:
        import importlib

        return int(getattr(importlib.import_module(module), name)(args))

    return run


def _kb_help(args: argparse.Namespace) -> int:
    """`trt-why kb` alone: what it can do."""
    args.parser.print_help(sys.stdout)
    return exit_codes.OK




def command_argv(argv: Sequence[str]) -> list[str]:
    """`argv` with its command in front: `diagnose` unless it starts with one (or asks for the help).

    A log named like a command is diagnosed when it is the only argument and a file (`trt-why tui` with
    ./tui a file); `trt-why ./tui` and `trt-why -- tui` always are."""
    argv = list(argv)
    if argv and argv[0] in ("-h", "--help", "-V", "--version"):
        return argv
    if argv and argv[0] in COMMANDS and (argv[0] == "diagnose" or len(argv) > 1 or not os.path.isfile(argv[0])):
        return argv
    return ["diagnose", *argv]
