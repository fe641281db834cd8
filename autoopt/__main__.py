from autoopt.frontends.cli import main

main()
