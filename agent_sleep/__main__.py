from agent_sleep.cli import main

main()
