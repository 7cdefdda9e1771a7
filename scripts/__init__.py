"""Thin entry points kept for the skill's literal commands; the logic lives in agent_sleep."""
