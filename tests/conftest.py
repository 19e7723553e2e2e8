import os
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

settings.register_profile(
    "ci", derandomize=True, deadline=None, print_blob=True,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
settings.register_profile(
    "dev", deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))


@pytest.fixture(autouse=True)
def _stop_event_listeners() -> Iterator[None]:
    """After each test, stop the event listeners its apps started: a listener left running keeps
    retrying a Redis the test has stopped, and logs to a closed stderr at exit."""
    yield
    from service.events import Notifier

    for notifier in list(Notifier.live):
        notifier.stop()


def _redis_children() -> list[int]:
    """redis-server processes this test process started that are still running."""
    found = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            text = stat.read_text()
        except OSError:
            continue
        name, _, rest = text.partition(") ")
        fields = rest.split()
        if name.endswith("(redis-server") and fields and int(fields[1]) == os.getpid() and fields[0] != "Z":
            found.append(int(stat.parent.name))
    return found


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    """The suite leaves nothing running: no thread but daemons and no redis-server of its own."""
    deadline = time.monotonic() + 5
    while True:
        threads = [t.name for t in threading.enumerate()
                   if t is not threading.main_thread() and t.is_alive()
                   and (not t.daemon or t.name == "arbiter-events")]
        if not threads or time.monotonic() > deadline:
            break
        time.sleep(0.1)
    servers = _redis_children() if Path("/proc").is_dir() else []
    if threads or servers:
        reporter = session.config.pluginmanager.get_plugin("terminalreporter")
        message = f"left running after the suite: threads {threads}, redis-server processes {servers}"
        if reporter is not None:
            reporter.ensure_newline()
            reporter.write_line(message, red=True)
        session.exitstatus = pytest.ExitCode.TESTS_FAILED
