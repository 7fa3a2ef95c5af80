from wopgen.cli import main

main()
