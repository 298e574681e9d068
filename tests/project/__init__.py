"""The project itself: code checks, benchmarks, the tests' isolation and time limit, the README's walkthrough."""
