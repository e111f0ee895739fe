"""`python -m troubleshooter.cli ...`: the same as the `trt-why` command."""

from troubleshooter.cli import entry

entry()
