"""Doors into the agents people run: an MCP server, Claude Code hooks and installer, and a
backend for Claude's memory tool. Each is a thin layer over the library; nothing here is
imported by the library itself, and each module imports its SDK only inside its functions."""
