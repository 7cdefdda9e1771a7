"""Who answers a consolidation prompt: the interface, Claude, and the offline consolidator."""
