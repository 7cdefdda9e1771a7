"""Git for workspaces: history, sync between machines, merge drivers, shared workspaces."""
