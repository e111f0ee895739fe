"""Ways into trt-why from other programs: the MCP server (``mcp.py``, extra ``mcp``).

Nothing here is imported by the CLI or the core unless asked for.
"""
