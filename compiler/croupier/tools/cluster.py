"""A simulation on an existing Dask distributed cluster (`simulate --scheduler ADDRESS`).

`dask.distributed` is an optional extra (`pip install 'croupier[cluster]'`); the
workers need Croupier installed, and nothing else of the client's. Each task is
one piece of seed range: it carries the spec TEXTS (the spec and its bases), the
digest of the engine the client compiled from them, the job and the range. The
worker compiles the texts with its own Croupier once per process, refuses to
play if its engine is not the client's, plays the piece and returns the tally as
JSON data and the log text. The client gathers pieces as they complete
(`as_completed`) and `campaign.drive` merges them in seed order, so the result is
the one of a local run with any number of workers.
"""

from __future__ import annotations

import itertools
import json
import socket
import time
from urllib.parse import urlsplit

from croupier.backends.engine.loader import engine_path, load_engine
from croupier.tools import campaign
from croupier.tools.spec_texts import CompileError, SpecTexts, compile_texts
from croupier.tools.tally import tally_from_json

# (spec digest, engine digest) -> engine, in a worker process; or, for texts that did not compile to that engine,
# keyed by the texts with their paths, the refusal, given again to every later piece of the run without compiling
_REMOTE: dict[tuple[str, str], object] = {}
_RUNS = itertools.count()


class ClusterError(Exception):
    """The cluster cannot be reached or used, or a worker failed to play a piece."""


def play_remote(spec: dict, engine_digest: str, job: dict, first: int, count: int,
                limit: int | None, log: bool) -> tuple[dict, str]:
    """The task a worker runs: compile the texts (once per process), play the piece, return data. Texts that do
    not compile here, or compile to another engine, are refused once per process too: the run's other pieces, and
    the retry of this one, get the same CompileError at once (a compile costs up to seconds)."""
    texts = SpecTexts.from_json(spec)
    key = (texts.digest, engine_digest)
    refused = (json.dumps(texts.to_json()), engine_digest)  # a refusal may depend on the paths too
    engine = _REMOTE.get(key)
    if engine is None:
        if refused in _REMOTE:
            raise CompileError(*_REMOTE[refused])
        if len(_REMOTE) >= 8:
            _REMOTE.clear()
        try:
            game, source = compile_texts(texts, engine_digest)
        except CompileError as exc:
            _REMOTE[refused] = exc.args
            raise
        engine = _REMOTE[key] = load_engine(source, f"sim_{game.name}", engine_path(game.name))
    tally, text = campaign.play_piece(engine, campaign.Job.from_json(job), first, count, limit, log)
    return tally.to_json(), text


SCHEMES = ("tcp", "tls", "ws", "wss")  # the transports a scheduler on another machine listens on
CONNECT_TIMEOUT = 10  # seconds to wait for a scheduler's port to answer, and then for its handshake


def scheduler_endpoint(address: str) -> tuple[str, str, int]:
    """(scheme, host, port) of a scheduler address such as `tcp://10.0.0.5:8786`, `tls://[::1]:8786` or
    `host:8786`; ClusterError at once, naming what is wrong, for anything else."""
    text = address.strip()
    scheme, sep, rest = text.partition("://")
    if not sep:
        scheme, rest = "tcp", text
    example = "give SCHEME://HOST:PORT, e.g. tcp://10.0.0.5:8786"
    if scheme not in SCHEMES:
        raise ClusterError(f"the scheduler address {address!r} has the transport {scheme!r}: Croupier reaches a "
                           f"scheduler by {', '.join(SCHEMES)}; {example}")
    if not text.isprintable() or any(c in rest for c in "/?#@ "):
        raise ClusterError(f"the scheduler address {address!r} is not HOST:PORT; {example}")
    try:
        parts = urlsplit(f"{scheme}://{rest}")
        host, port = parts.hostname, parts.port
    except ValueError as exc:
        raise ClusterError(f"the scheduler address {address!r} is not valid ({exc}); {example}") from None
    if not host or port is None or not 0 < port < 65536:
        raise ClusterError(f"the scheduler address {address!r} names no host and port; {example}")
    return scheme, host, port


def connect(address: str):
    """A client of the scheduler at `address`; ClusterError when dask is missing, at once for an address that
    is not one, and after CONNECT_TIMEOUT seconds for a scheduler that does not answer."""
    scheme, host, port = scheduler_endpoint(address)
    try:
        from distributed import Client
    except ImportError:
        raise ClusterError("--scheduler needs dask.distributed: pip install 'croupier[cluster]'") from None
    if scheme in ("tls", "wss"):
        from distributed import Security

        if Security().get_connection_args("client").get("ssl_context") is None:
            raise ClusterError(f"the scheduler address {address!r} asks for TLS, and dask has no TLS settings "
                               "(distributed.comm.tls in its configuration); give them, or a tcp:// address")
    try:
        socket.create_connection((host, port), timeout=CONNECT_TIMEOUT).close()
    except OSError as exc:
        raise ClusterError(f"cannot reach the scheduler {address}: no answer from {host} port {port} within "
                           f"{CONNECT_TIMEOUT} s ({getattr(exc, 'strerror', None) or exc})") from None
    client = None
    try:
        client = Client(f"{scheme}://{host if ':' not in host else f'[{host}]'}:{port}", timeout=CONNECT_TIMEOUT,
                        set_as_default=False)
        return client
    except (OSError, TimeoutError, ValueError, TypeError) as exc:
        raise ClusterError(f"cannot reach the scheduler {address}: {exc}") from None


class DaskExecutor:
    """The executor of a Dask cluster: pieces are tasks, two per worker thread outstanding."""

    def __init__(self, client, spec: SpecTexts, engine_digest: str, job: campaign.Job, log: bool) -> None:
        from distributed import as_completed

        self.client = client
        self.args = (spec.to_json(), engine_digest, job.to_json())
        self.log = log
        self.threads = max(1, sum(client.nthreads().values()))
        self.window = 2 * self.threads
        self.futures: dict[str, tuple[int, object]] = {}  # task key -> (first unit, future)
        self.done = as_completed(loop=client.loop)
        self.run = f"croupier-simulate-{time.time_ns()}-{next(_RUNS)}"

    def submit(self, first: int, count: int, limit: int | None) -> None:
        future = self.client.submit(play_remote, *self.args, first, count, limit, self.log,
                                    key=f"{self.run}-{first}", pure=False, retries=1)
        self.futures[future.key] = (first, future)
        self.done.add(future)

    def collect(self, timeout: float) -> list[tuple[int, campaign.Result]]:
        deadline = time.monotonic() + timeout
        while not self.done.has_ready() and time.monotonic() < deadline:
            time.sleep(0.02)
        out = []
        for future in self.done.next_batch(block=False) if self.done.has_ready() else []:
            held = self.futures.pop(future.key, None)
            if held is None or future.status == "cancelled":
                continue  # cancelled by `halt`
            if future.status != "finished":
                raise ClusterError(f"a worker could not play units {held[0]}..: {future.exception()}")
            data, text = future.result()
            out.append((held[0], (tally_from_json(data), text)))
        return out

    def pending(self) -> int:
        return len(self.futures)

    def halt(self) -> None:
        """Cancel the pieces not done (one already running ends on its worker, its result dropped);
        those done are still collected."""
        for key, (_, future) in list(self.futures.items()):
            if not future.done():
                self.client.cancel([future])
                del self.futures[key]

    def close(self) -> None:
        if self.futures:
            self.client.cancel([future for _, future in self.futures.values()])
        self.futures.clear()
        self.done.clear()


def run_cluster(state: campaign.State, address: str, spec: SpecTexts, source: str, name: str,
                engine_digest: str, sink=None, progress=None, stop=None, save=None,
                every: float = 5.0) -> tuple[campaign.State, int]:
    """Drive the run on the cluster at `address`; (state, the cluster's worker threads)."""
    from croupier.tools.simulate import engine_of

    client = connect(address)
    try:
        log = sink is not None
        executor = DaskExecutor(client, spec, engine_digest, state.job, log)
        engine = engine_of(source, name)
        stopped = stop or (lambda: False)

        def replay(first: int, count: int, limit: int) -> campaign.Result:
            return campaign.play_piece(engine, state.job, first, count, limit, log, stopped)

        size = state.piece_size(executor.threads, log)
        campaign.drive(state, executor, size, sink, progress, stopped, replay, save, every)
        return state, executor.threads
    except ClusterError:
        raise
    except Exception as exc:  # the cluster's own failures (a lost connection, a dead scheduler): a message
        raise ClusterError(f"the cluster at {address} failed: {type(exc).__name__}: {exc}") from None
    finally:
        client.close()
