from agent_sleep.cli.app import main

main()
