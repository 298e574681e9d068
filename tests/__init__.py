"""The test suite, one folder a room of the code (each a package, so that two rooms may hold test modules of the
same name): battle, ccg and champions (each game's rules, casebook, service and commands), tournament, store,
records, web, cli (what every command shares), reliability, project (the checks of the tree itself), and support
(the helpers the tests share). tests/conftest.py holds the run's fixtures, options and slow list."""
