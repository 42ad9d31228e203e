"""The command line: parse, call the rooms below, print one line per failure."""
