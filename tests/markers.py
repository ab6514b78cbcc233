"""What a test's markers and fixtures say of it. Tests that start other processes (servers, commands, a browser)
carry one of these markers, so that `make test-fast` (-m "not browser and not quality and not multiprocess") leaves
them all out."""
MARKERS_OF_TESTS_THAT_START_PROCESSES = ("multiprocess", "browser", "quality")
OWN_STATE_FIXTURES = {"transactional_db", "live_server", "django_db_reset_sequences", "django_db_serialized_rollback"}


def starts_processes(item):
    return any(item.get_closest_marker(name) for name in MARKERS_OF_TESTS_THAT_START_PROCESSES)


def has_own_state(item):
    """Whether the test's database or settings may differ from the launch content's as loaded: it commits (its
    teardown empties every table), resets sequences, or starts processes."""
    database = item.get_closest_marker("django_db")
    return (starts_processes(item) or bool(OWN_STATE_FIXTURES.intersection(item.fixturenames))
            or bool(database and (database.kwargs.get("transaction") or database.kwargs.get("serialized_rollback"))))
