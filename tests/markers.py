"""Tests that start other processes (servers, commands, a browser) carry one of these markers, so that
`make test-fast` (-m "not browser and not quality and not multiprocess") leaves them all out."""
MARKERS_OF_TESTS_THAT_START_PROCESSES = ("multiprocess", "browser", "quality")


def starts_processes(item):
    return any(item.get_closest_marker(name) for name in MARKERS_OF_TESTS_THAT_START_PROCESSES)
