"""Reliability: crashes, concurrent writers, fuzzing of every reader and command, the load test."""
