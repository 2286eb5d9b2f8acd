"""Serving the browser benchmarks' site: counting the files sent whole, optionally through a slower link."""

import collections
import functools
import http.server
import pathlib
import sys
import threading
import time

ROOT = pathlib.Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

import build  # noqa: E402


class Link:
    """A network link every response shares, as a visitor's connection is shared by the files of a page:
    `mbit_per_s` in all, and `latency_ms` before each response starts (--bandwidth, --latency)."""

    CHUNK = 16 * 1024

    def __init__(self, mbit_per_s, latency_ms):
        self.bytes_per_s = mbit_per_s * 1e6 / 8
        self.latency = latency_ms / 1000
        self.lock = threading.Lock()
        self.free_at = 0.0  # when the link has sent everything queued so far

    def send(self, source, out):
        time.sleep(self.latency)
        while chunk := source.read(self.CHUNK):
            with self.lock:  # the chunk queues behind what the other responses have queued
                self.free_at = max(self.free_at, time.monotonic()) + len(chunk) / self.bytes_per_s
                wait = self.free_at - time.monotonic()
            if wait > 0:
                time.sleep(wait)
            out.write(chunk)


class CountingHandler(build.SiteHandler):
    """The site's handler, counting the files it sends whole (200 OK; a 304 to a revalidation is not a
    download) by path: a cold load that downloads a file twice has a cache that did not serve it. With a
    `link`, responses go through it (a slower network than the machine's own loopback)."""

    answered = collections.Counter()
    lock = threading.Lock()
    link = None

    def log_request(self, code="-", size="-"):
        if code == 200:
            with self.lock:
                self.answered[self.path.split("?")[0]] += 1

    def copyfile(self, source, outputfile):
        if self.link is None:
            return super().copyfile(source, outputfile)
        self.link.send(source, outputfile)


def make_counting_server(directory):
    handler = functools.partial(CountingHandler, directory=str(directory))
    return http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
