"""`croupier serve SPEC`: a page on 127.0.0.1 that shows a spec's card, house edges and diff, live.

A watcher thread looks at the spec and its bases (size and modification time, every
`WATCH_EVERY` seconds) and, after a save, builds the page's parts (`live_view`): first the card
as resolved, then the checks, the analysis and the diff. Each state is sent to every open page
as a server-sent event (`/events`): the page only listens, it never polls. The server is bound
to 127.0.0.1 only, reads the project and writes nothing into it.
"""

from __future__ import annotations

import json
import threading
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

from croupier.editor.index import chain_of
from croupier.editor.live_view import Built, body_html, e, full_view, quick_view

HOST = "127.0.0.1"
WATCH_EVERY = 0.1  # seconds between two looks at the files
HEARTBEAT = 10.0  # seconds between two keep-alive comments on an idle event stream

PAGE = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>{title} · croupier serve</title>
<style>
body {{ font: 16px/1.45 system-ui, sans-serif; margin: 0 auto; padding: 0 1rem 2rem; max-width: 72rem; color: #1d1d1f; }}
header {{ border-bottom: 1px solid #ccc; margin-bottom: .5rem; }}
h1 {{ font-size: 1.3rem; margin: .8rem 0 .2rem; }} h2 {{ font-size: 1.1rem; margin: 1.2rem 0 .4rem; }}
#status {{ margin: .3rem 0; font-weight: 600; }} #status[data-status=error] {{ color: #b00020; }}
#status[data-status=checking] {{ color: #8a6d00; }} #status[data-status=checked] {{ color: #1b6e20; }}
pre {{ background: #f6f6f6; padding: .6rem; overflow: auto; font-size: .85rem; white-space: pre-wrap; }}
#diff pre {{ max-height: 20rem; white-space: pre; }}
pre.diags {{ background: #fff0f0; border-left: 4px solid #b00020; }}
table {{ border-collapse: collapse; max-width: 100%; }} th, td {{ text-align: left; padding: .2rem .6rem; border-bottom: 1px solid #e2e2e2; }}
td.exact {{ font-family: ui-monospace, monospace; font-size: .85rem; word-break: break-all; }}
td.pct {{ white-space: nowrap; }}
iframe {{ width: 100%; border: 1px solid #ccc; min-height: 70vh; }}
.langs a {{ font-size: .9rem; margin-left: .4rem; }} .langs a[aria-current] {{ font-weight: 700; text-decoration: none; }}
@media (max-width: 600px) {{ body {{ padding: 0 .5rem 1rem; }} th, td {{ padding: .2rem .3rem; }} }}
</style></head>
<body data-version="{version}"><header><h1>{title}</h1></header>
<main id="live">{body}</main>
<script>
const lang = new URLSearchParams(location.search).get("lang") || "";
function fit() {{
  for (const frame of document.querySelectorAll("iframe")) {{
    frame.addEventListener("load", () => {{
      const doc = frame.contentDocument;
      if (doc) frame.style.height = (doc.documentElement.scrollHeight + 20) + "px";
    }});
  }}
}}
fit();
const events = new EventSource("/events?lang=" + encodeURIComponent(lang));
events.onmessage = (ev) => {{
  const state = JSON.parse(ev.data);
  if (String(state.version) === document.body.dataset.version && state.complete === false) return;
  document.getElementById("live").innerHTML = state.html;
  document.body.dataset.version = state.version;
  fit();
}};
</script></body></html>
"""


class LiveSpec:
    """The spec being served: its latest page state, and the watcher that rebuilds it after each save."""

    def __init__(self, path: Path) -> None:
        self.path = path.resolve()
        self.changed = threading.Condition()
        self.version = 0
        self.built: Built | None = None
        self.stopping = threading.Event()
        self.thread = threading.Thread(target=self.watch, name="croupier-serve-watch", daemon=True)

    def signature(self) -> tuple:
        """What tells a save: the size and modification time of the spec and of each of its bases."""
        try:
            text = self.path.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError):
            return ()
        out = []
        for p in chain_of(self.path, text, lambda _p: None):
            try:
                st = p.stat()
                out.append((str(p), st.st_mtime_ns, st.st_size))
            except OSError:
                out.append((str(p), None, None))
        return tuple(out)

    def publish(self, built: Built) -> None:
        with self.changed:
            self.version += 1
            self.built = built
            self.changed.notify_all()

    def build(self) -> None:
        """Build the page for the files as they are now: the quick state, then the full one."""
        try:
            quick = quick_view(self.path)
        except Exception as exc:  # noqa: BLE001 - the page says what failed instead of stopping
            self.publish_error(exc)
            return
        self.publish(quick)
        if not quick.complete:
            seen = self.signature()
            try:
                full = full_view(quick, lambda part: self.publish(part) if self.signature() == seen else None)
            except Exception as exc:  # noqa: BLE001
                self.publish_error(exc)
                return
            if self.signature() == seen:
                self.publish(full)

    def publish_error(self, exc: Exception) -> None:
        from croupier.editor.diagnose import Resolved

        built = Built(Resolved(self.path, str(self.path), None, None), complete=True)
        built.diagnostics = f'<section id="diagnostics"><h2>The spec cannot be read</h2><pre class="diags">{e(exc)}</pre></section>'
        self.publish(built)

    def watch(self) -> None:
        seen = None
        while not self.stopping.is_set():
            now = self.signature()
            if now != seen:
                seen = now
                self.build()
            self.stopping.wait(WATCH_EVERY)

    def wait_newer(self, version: int, timeout: float) -> tuple[int, Built | None]:
        with self.changed:
            self.changed.wait_for(lambda: self.version > version or self.stopping.is_set(), timeout)
            return self.version, self.built

    def state_json(self, lang: str) -> str:
        with self.changed:
            version, built = self.version, self.built
        return json.dumps({"version": version, "complete": built.complete if built else False,
                           "html": body_html(built, lang) if built else ""}, ensure_ascii=False)


def handler_for(live: LiveSpec) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        """`/`: the page; `/events`: the stream of its states."""

        protocol_version = "HTTP/1.1"

        def log_message(self, format: str, *args) -> None:  # noqa: A002 - the standard library's name
            return

        def do_GET(self) -> None:  # noqa: N802 - the standard library's name
            url = urlsplit(self.path)
            lang = parse_qs(url.query).get("lang", [""])[0]
            if url.path == "/":
                self.page(lang)
            elif url.path == "/events":
                self.events(lang)
            else:
                self.send_error(HTTPStatus.NOT_FOUND)

        def page(self, lang: str) -> None:
            with live.changed:
                version, built = live.version, live.built
            body = body_html(built, lang) if built is not None else "<p>Building…</p>"
            data = PAGE.format(title=e(live.path.name), version=version, body=body).encode("utf-8")
            self.send_response(HTTPStatus.OK)
            self.send_header("Content-Type", "text/html; charset=utf-8")
            self.send_header("Content-Length", str(len(data)))
            self.send_header("Cache-Control", "no-store")
            self.end_headers()
            self.wfile.write(data)

        def events(self, lang: str) -> None:
            self.send_response(HTTPStatus.OK)
            self.send_header("Content-Type", "text/event-stream; charset=utf-8")
            self.send_header("Cache-Control", "no-store")
            self.end_headers()
            version = 0  # the first state sent is the first one built
            try:
                while not live.stopping.is_set():
                    newer, _built = live.wait_newer(version, HEARTBEAT)
                    if newer > version:
                        version = newer
                        self.wfile.write(f"data: {live.state_json(lang)}\n\n".encode())
                    else:
                        self.wfile.write(b": still here\n\n")
                    self.wfile.flush()
            except (BrokenPipeError, ConnectionResetError):
                return

    return Handler


def make_server(path: Path, port: int = 0) -> tuple[ThreadingHTTPServer, LiveSpec]:
    """The page's server on 127.0.0.1 (port 0: any free one) and the watched spec, started."""
    live = LiveSpec(path)
    server = ThreadingHTTPServer((HOST, port), handler_for(live))
    server.daemon_threads = True
    live.thread.start()
    return server, live


def serve(path: Path, port: int) -> None:
    """Serve the page until interrupted; print its address first."""
    server, live = make_server(path, port)
    print(f"croupier serve: http://{HOST}:{server.server_address[1]}/ (Ctrl-C stops)", flush=True)
    try:
        server.serve_forever(poll_interval=0.5)
    except KeyboardInterrupt:
        pass
    finally:
        live.stopping.set()
        with live.changed:
            live.changed.notify_all()
        server.server_close()
