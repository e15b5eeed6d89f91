#!/usr/bin/env python3
"""The latency of a cached `/api/count` while each of issue 45's attacks on `knights serve` runs.

Starts `knights serve --bind 127.0.0.1:0 --db STORE --memory 300MB` on a new store in a
temporary directory (KNIGHTS_NO_SHIPPED=1, XDG_DATA_HOME there too) that holds the 5x5 counts
(`knights --db STORE count 5 5`), then, with nothing running and while each attack runs, times
N=30 sequential `GET /api/count?rows=5&cols=5&row=0&col=0` from 127.0.0.1 (a plain socket,
HTTP/1.1, `Connection: close`, 10 s a request). The attackers connect from other loopback
addresses (127.0.0.2 and on: the server shares its connections by client IP), from one other
address and spread over nine, and once from 127.0.0.1 itself:

  1. 513 `POST /api/puzzle` heads with `Content-Length: 1000` and no body, held open;
  2. 512 idle sockets;  3. 512 half-sent heads;
  4. 515 long polls (`wait=60`) on one job (the 6x9 corner's ends, started with `wait=0`,
     cancelled after the row);
  5. 4 hard puzzles (7x7, the 1 in a corner, `count=1`) whose clients hang up 1 s after
     sending them (so that the solve has started), the server's memory and CPU around it;
  6. 3 concurrent `/api/answers`;
  7. a cross-site POST and a wrong Host.

Each row: the attackers opened, what the server did with them (429 at once, closed after how
long, still open), the server's sockets at the peak, the latency median / p90 / max in ms, the
errors, the server's VmRSS / VmHWM (the peak reset at each row's start). Everything stays on 127.0.0.0/8; every loop is bounded; the
server is stopped by its PID (SIGTERM, then SIGKILL) whatever happens; about 3 to 4 minutes.

    scripts/serve-attacks.py            # uses target/release/knights (cargo build --release)
    KNIGHTS_BIN=target/debug/knights scripts/serve-attacks.py
"""

import os
import re
import resource
import selectors
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
KNIGHTS = os.environ.get("KNIGHTS_BIN", os.path.join(ROOT, "target", "release", "knights"))

N = 30  # cached requests a row
REQUEST_TIMEOUT = 10.0  # seconds, each measuring request
ROW_BUDGET = 25.0  # seconds of measuring a row at most (the rest of the N are "not sent")
OBSERVE = 13.0  # seconds the attack sockets are watched at least (the 10 s timeouts + 3)
TOTAL_BUDGET = 330.0  # seconds: rows past it are skipped
CACHED = "/api/count?rows=5&cols=5&row=0&col=0"
ME = "127.0.0.1"
OTHER = "127.0.0.2"
SPREAD = [f"127.0.0.{i}" for i in range(2, 11)]  # nine clients, 57 sockets each for 513
# Uncached: the 6x9 corner's ends, one job of 27 pairs of ~5 s and ~60 MB each (7x7's pairs
# outgrow a place's half of 300MB; 6x8's take under a second).
LONG_JOB = "/api/count?rows=6&cols=9&row=0&col=0&ends"
JOB_CLIENT = "127.0.0.20"  # looks at and cancels the job: not one whose share the polls hold
HANG_UP = 1.0  # seconds after sending a puzzle that its client hangs up (the solve has started)
PUZZLE = "\n".join(["1" + " ." * 6] + [" ".join(["."] * 7)] * 6) + "\n"  # 7x7, the 1 in a corner

START = time.monotonic()
port = None  # the server's, once it listens
server_pid = None


class Stop(Exception):
    """SIGTERM or SIGHUP to this script: stop as Ctrl-C does (the server is stopped in finally)."""


def on_signal(signum, _frame):
    raise Stop(f"signal {signum}")


def addr():
    return (ME, port)


def loadavg():
    with open("/proc/loadavg") as f:
        return " ".join(f.read().split()[:3])


def proc_status():
    """The server's VmRSS and VmHWM in kB (None when it is gone)."""
    try:
        with open(f"/proc/{server_pid}/status") as f:
            text = f.read()
    except OSError:
        return None, None
    rss = re.search(r"VmRSS:\s+(\d+)", text)
    hwm = re.search(r"VmHWM:\s+(\d+)", text)
    return int(rss.group(1)) if rss else None, int(hwm.group(1)) if hwm else None


def reset_peak():
    """Resets the server's VmHWM to its VmRSS (Linux: clear_refs 5), so each row has its own peak."""
    try:
        with open(f"/proc/{server_pid}/clear_refs", "w") as f:
            f.write("5")
    except OSError:
        pass


def cpu_seconds():
    """The server's user + system CPU seconds so far."""
    try:
        with open(f"/proc/{server_pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except OSError:
        return float("nan")


def server_sockets():
    """How many sockets the server holds (its listener and connections, and the store's none)."""
    n = 0
    try:
        for fd in os.listdir(f"/proc/{server_pid}/fd"):
            try:
                if os.readlink(f"/proc/{server_pid}/fd/{fd}").startswith("socket:"):
                    n += 1
            except OSError:
                pass
    except OSError:
        return -1
    return n


def status_of(data):
    m = re.match(rb"HTTP/1\.[01] (\d{3})", bytes(data))
    return int(m.group(1)) if m else None


def request(method, target, src=ME, headers=(), body=b"", timeout=REQUEST_TIMEOUT, host=None):
    """One request on its own connection: (status or None, seconds, response bytes, error)."""
    t0 = time.monotonic()
    deadline = t0 + timeout
    data = bytearray()
    error = None
    s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    try:
        s.settimeout(timeout)
        s.bind((src, 0))
        s.connect(addr())
        head = f"{method} {target} HTTP/1.1\r\nHost: {host or f'127.0.0.1:{port}'}\r\nConnection: close\r\n"
        for name, value in headers:
            head += f"{name}: {value}\r\n"
        if body or method in ("POST", "PUT"):
            head += f"Content-Length: {len(body)}\r\n"
        s.sendall(head.encode() + b"\r\n" + body)
        for _ in range(100_000):  # bounded: at most 6.5 GB, and the deadline
            left = deadline - time.monotonic()
            if left <= 0:
                raise socket.timeout()
            s.settimeout(left)
            chunk = s.recv(65536)
            if not chunk:
                break
            data += chunk
    except socket.timeout:
        error = "timeout"
    except OSError as e:
        error = type(e).__name__
    finally:
        s.close()
    elapsed = time.monotonic() - t0
    status = status_of(data)
    if status is not None and error not in (None, "timeout"):
        error = None  # the answer arrived, then a reset (a 429 before the request was read)
    return status, elapsed, bytes(data), error


def json_field(data, name):
    m = re.search(rb'"' + name.encode() + rb'"\s*:\s*"?([^",}]*)', data)
    return m.group(1).decode() if m else None


class Attack:
    """Attack sockets, opened in batches, each watched for what the server does with it."""

    def __init__(self, count, sources, payload):
        self.socks = []
        self.opened_at = []
        self.failed = Counter()
        self.events = {}  # index -> (seconds after opening, what)
        self.lock = threading.Lock()
        self.stop = threading.Event()
        self.sockets_peak = 0
        for batch in range(0, count, 64):
            for i in range(batch, min(batch + 64, count)):
                s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
                try:
                    s.settimeout(3)
                    s.bind((sources[i * len(sources) // count], 0))
                    s.connect(addr())
                    if payload:
                        s.sendall(payload)
                    s.setblocking(False)
                except OSError as e:
                    self.failed[type(e).__name__] += 1
                    s.close()
                    continue
                self.socks.append(s)
                self.opened_at.append(time.monotonic())
            time.sleep(0.005)
        self.watcher = threading.Thread(target=self.watch, daemon=True)
        self.watcher.start()

    def watch(self):
        sel = selectors.DefaultSelector()
        for i, s in enumerate(self.socks):
            sel.register(s, selectors.EVENT_READ, i)
        pending = len(self.socks)
        sampled = 0.0
        for _ in range(100_000):  # bounded; stops when told or when every socket has spoken
            if self.stop.is_set() or pending == 0:
                break
            if time.monotonic() - sampled > 0.25:
                self.sockets_peak = max(self.sockets_peak, server_sockets())
                sampled = time.monotonic()
            for key, _ in sel.select(timeout=0.1):
                i = key.data
                try:
                    chunk = key.fileobj.recv(4096)
                    what = "closed" if not chunk else (f"{status_of(chunk)}" if status_of(chunk) else "data")
                except BlockingIOError:
                    continue
                except OSError:
                    what = "reset"
                with self.lock:
                    self.events[i] = (time.monotonic() - self.opened_at[i], what)
                sel.unregister(key.fileobj)
                pending -= 1
        sel.close()

    def observe_until(self, t):
        """Lets the watcher run until monotonic time t (or every socket has spoken)."""
        for _ in range(1000):
            if time.monotonic() >= t or not self.watcher.is_alive():
                break
            time.sleep(0.05)

    def close(self):
        self.stop.set()
        self.watcher.join(5)
        for s in self.socks:
            try:
                s.close()
            except OSError:
                pass

    def summary(self):
        """What became of the sockets: '64 held; 449×429 at 0.0 s; 64×408 after 10.0 s …'."""
        with self.lock:
            events = dict(self.events)
        groups = {}
        for seconds, what in events.values():
            groups.setdefault((what, seconds < 2), []).append(seconds)
        parts = []
        for (what, _), times in sorted(groups.items(), key=lambda kv: -len(kv[1])):
            times.sort()
            label = {"closed": "closed by server", "reset": "reset"}.get(what, f"answered {what}")
            parts.append(f"{len(times)} {label} after {times[len(times) // 2]:.1f} s (min {times[0]:.1f}, max {times[-1]:.1f})")
        still = len(self.socks) - len(events)
        if still:
            parts.append(f"{still} still open when watching stopped")
        if self.failed:
            parts.append("connect failed: " + ", ".join(f"{n} {k}" for k, n in self.failed.items()))
        return "; ".join(parts)

    def refused_at_once(self):
        """The sockets answered 429, closed or reset within 2 s of opening."""
        with self.lock:
            return sum(1 for sec, _ in self.events.values() if sec < 2)


def measure(n=N, budget=ROW_BUDGET, sample=None):
    """n sequential cached requests from 127.0.0.1: latencies of the 200s, what went wrong."""
    t0 = time.monotonic()
    lat = []
    other = Counter()
    sockets_peak = 0
    rss_peak = 0
    sent = 0
    for _ in range(n):
        if time.monotonic() - t0 > budget:
            break
        status, seconds, _, error = request("GET", CACHED)
        sent += 1
        if status == 200:
            lat.append(seconds * 1000)
        else:
            other[error or (f"status {status}" if status else "closed, no answer")] += 1
        sockets_peak = max(sockets_peak, server_sockets())
        rss, _ = proc_status()
        rss_peak = max(rss_peak, rss or 0)
        if sample:
            sample()
    return {
        "lat": lat,
        "other": other,
        "not_sent": n - sent,
        "sockets_peak": sockets_peak,
        "rss_peak": rss_peak,
        "seconds": time.monotonic() - t0,
    }


def pct(values, p):
    values = sorted(values)
    return values[max(0, min(len(values) - 1, int(round(p / 100 * len(values) + 0.5)) - 1))]


def row(name, attackers, m, notes="", attack=None):
    lat = m["lat"]
    if lat:
        lats = f"{statistics.median(lat):8.1f} {pct(lat, 90):8.1f} {max(lat):8.1f}"
    else:
        lats = f"{'-':>8} {'-':>8} {'-':>8}"
    errs = ", ".join(f"{k} {v}" for k, v in m["other"].items()) or "0"
    if m["not_sent"]:
        errs += f", not sent {m['not_sent']} (row budget)"
    rss, hwm = proc_status()
    sockets = max(m["sockets_peak"], attack.sockets_peak if attack else 0)
    print(f"{name:<50} {attackers:<22} {len(lat):>3}/{N:<3} {lats}  {errs:<22} "
          f"sock {sockets:>3}  RSS {m['rss_peak']:>7} / HWM {hwm} kB  ({m['seconds']:.1f} s)")
    if notes:
        print(f"    {notes}")
    sys.stdout.flush()


def settle(idle_sockets):
    """Waits (at most 25 s) until the server holds no more sockets than when idle."""
    for _ in range(250):
        if server_sockets() <= idle_sockets:
            return
        time.sleep(0.1)
    print(f"    (server still holds {server_sockets()} sockets after 25 s; idle: {idle_sockets})")


def over_budget(name):
    if time.monotonic() - START > TOTAL_BUDGET:
        print(f"{name:<50} skipped: past the script's {TOTAL_BUDGET:.0f} s budget")
        return True
    reset_peak()
    return False


def socket_attack(name, count, sources, payload, idle_sockets, observe=OBSERVE):
    if over_budget(name):
        return
    attack = Attack(count, sources, payload)
    t_open = time.monotonic()
    try:
        m = measure()
        attack.observe_until(t_open + observe)
    finally:
        attack.close()
    who = f"{len(attack.socks)}/{count} from {sources[0]}" if len(sources) == 1 else \
        f"{len(attack.socks)}/{count} over {len(sources)} IPs"
    row(name, who, m, attack.summary(), attack)
    settle(idle_sockets)


def main():
    global port, server_pid
    signal.signal(signal.SIGTERM, on_signal)
    signal.signal(signal.SIGHUP, on_signal)
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft < hard:
        resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    print(f"date: {time.strftime('%Y-%m-%d %H:%M:%S %z')}")
    print(f"nproc: {len(os.sched_getaffinity(0))}  load average at start: {loadavg()}")
    print(f"ulimit -n: {soft} -> {resource.getrlimit(resource.RLIMIT_NOFILE)[0]} (hard {hard})")
    print(f"binary: {KNIGHTS} (modified {time.strftime('%Y-%m-%d %H:%M', time.localtime(os.path.getmtime(KNIGHTS)))})")
    tmp = tempfile.mkdtemp(prefix="knights-attacks-")
    server = None
    try:
        store = os.path.join(tmp, "answers.db")
        env = dict(os.environ, KNIGHTS_NO_SHIPPED="1", XDG_DATA_HOME=tmp)
        env.pop("KNIGHTS_DB", None)
        t = time.monotonic()
        pre = subprocess.run([KNIGHTS, "--db", store, "count", "5", "5"], env=env,
                             capture_output=True, timeout=120)
        print(f"pre-store: knights --db STORE count 5 5: exit {pre.returncode} in {time.monotonic() - t:.2f} s")
        command = [KNIGHTS, "serve", "--bind", "127.0.0.1:0", "--db", store, "--memory", "300MB"]
        print("server: " + " ".join(command).replace(tmp, "$TMP"))
        out = open(os.path.join(tmp, "stdout"), "wb")
        err = open(os.path.join(tmp, "stderr"), "wb")
        server = subprocess.Popen(command, env=env, stdout=out, stderr=err, stdin=subprocess.DEVNULL)
        server_pid = server.pid
        for _ in range(300):  # 30 s
            with open(os.path.join(tmp, "stdout")) as f:
                m = re.search(r"listening on http://127\.0\.0\.1:(\d+)/", f.read())
            if m:
                port = int(m.group(1))
                break
            if server.poll() is not None:
                raise RuntimeError(f"the server exited with {server.returncode}")
            time.sleep(0.1)
        else:
            raise RuntimeError("the server did not say where it listens within 30 s")
        status, seconds, data, error = request("GET", CACHED)
        print(f"pid {server_pid}, port {port}; first cached GET: {status} {error or ''} in {seconds * 1000:.1f} ms, "
              f"source {json_field(data, 'source')}")
        idle_sockets = server_sockets()
        print(f"server sockets when idle: {idle_sockets}; VmRSS / VmHWM: {proc_status()} kB")
        print()
        print(f"{'attack':<50} {'attackers opened':<22} {'200':>3}/{'N':<3} {'median':>8} {'p90':>8} {'max':>8}  "
              f"{'errors/timeouts':<22} server sockets (peak), VmRSS peak / VmHWM of the row (kB), measuring time")
        print(f"{'':<50} {'':<22} {'':7} {'(ms)':>8} {'(ms)':>8} {'(ms)':>8}")

        reset_peak()
        row("0. baseline (nothing else)", "-", measure())

        stall = (b"POST /api/puzzle HTTP/1.1\r\nHost: 127.0.0.1:%d\r\nContent-Type: text/plain\r\n"
                 b"Content-Length: 1000\r\n\r\n" % port)
        socket_attack("1a. 513 stalled bodies, one other client", 513, [OTHER], stall, idle_sockets)
        socket_attack("1b. 513 stalled bodies, 9 other clients", 513, SPREAD, stall, idle_sockets)
        socket_attack("1c. 513 stalled bodies, from 127.0.0.1 itself", 513, [ME], stall, idle_sockets)
        socket_attack("2a. 512 idle sockets, one other client", 512, [OTHER], b"", idle_sockets)
        socket_attack("2b. 512 idle sockets, 9 other clients", 512, SPREAD, b"", idle_sockets)
        half = b"GET /api/count?rows=5 HTTP/1.1\r\nHost: 127.0.0.1:%d\r\n" % port
        socket_attack("3a. 512 half-sent heads, one other client", 512, [OTHER], half, idle_sockets)
        socket_attack("3b. 512 half-sent heads, 9 other clients", 512, SPREAD, half, idle_sockets)

        # 4. Long polls on one job: the job started by 127.0.0.2 with wait=0.
        for name, sources in (("4a. 515 long polls on one job, one other client", [OTHER]),
                              ("4b. 515 long polls on one job, 9 other clients", SPREAD)):
            if over_budget(name):
                continue
            status, seconds, data, error = request("GET", LONG_JOB + "&wait=0", src=OTHER)
            job = json_field(data, "job")
            print(f"    job: GET {LONG_JOB}&wait=0 from {OTHER}: {status} {error or ''} in {seconds * 1000:.0f} ms, "
                  f"job {job}, state {json_field(data, 'state')}")
            poll = (b"GET %s&wait=60 HTTP/1.1\r\nHost: 127.0.0.1:%d\r\nConnection: close\r\n\r\n"
                    % (LONG_JOB.encode(), port))
            attack = Attack(515, sources, poll)
            t_open = time.monotonic()
            try:
                m = measure()
                attack.observe_until(t_open + 3)
                held = len(attack.socks) - attack.refused_at_once()
            finally:
                attack.close()
                if job:
                    st, sec, d, e = request("GET", job, src=JOB_CLIENT)
                    state = f"{json_field(d, 'state')} ({json_field(d, 'computed')}/{json_field(d, 'planned')} answers)"
                    st2, _, _, e2 = request("DELETE", job, src=JOB_CLIENT)
                    for _ in range(100):  # at most 10 s: the next row must not join a job being cancelled
                        if json_field(request("GET", job, src=JOB_CLIENT)[2], "state") != "running":
                            break
                        time.sleep(0.1)
                    job_note = (f"job {job} was {state} at the end; DELETE: {st2} {e2 or ''}; then "
                                f"{json_field(request('GET', job, src=JOB_CLIENT)[2], 'state')}")
                else:
                    job_note = "no job was started: " + data[-300:].decode(errors="replace").replace("\n", " ")
            who = f"{len(attack.socks)}/515 from {OTHER}" if len(sources) == 1 else f"{len(attack.socks)}/515 over {len(sources)} IPs"
            row(name, who, m, f"not refused within 2 s: {held}; " + attack.summary() + "; " + job_note, attack)
            settle(idle_sockets)

        # 5. Four hard puzzles, each client hanging up 0.3 s after sending it.
        name = f"5. 4 hard puzzles (7x7 corner), hung up at {HANG_UP:.0f} s"
        if not over_budget(name):
            rss0, hwm0 = proc_status()
            cpu0 = cpu_seconds()
            body = PUZZLE.encode()
            head = (b"POST /api/puzzle?count=1 HTTP/1.1\r\nHost: 127.0.0.1:%d\r\nContent-Type: text/plain\r\n"
                    b"Content-Length: %d\r\nConnection: close\r\n\r\n" % (port, len(body)))
            attack = Attack(4, SPREAD[:4], head + body)
            time.sleep(HANG_UP)
            attack.close()
            rss1, hwm1 = proc_status()
            cpu1 = cpu_seconds()
            m = measure()
            time.sleep(max(0.0, 3 - m["seconds"]))
            rss2, hwm2 = proc_status()
            cpu2 = cpu_seconds()
            time.sleep(3)
            cpu3 = cpu_seconds()
            row(name, "4 over 4 IPs", m,
                f"before the hang-up: {attack.summary() or 'no answer'}; "
                f"VmRSS/VmHWM kB: before {rss0}/{hwm0}, at the hang-up {rss1}/{hwm1}, 3 s later {rss2}/{hwm2}; "
                f"server CPU s: {cpu1 - cpu0:.2f} until the hang-up, {cpu2 - cpu1:.2f} while measuring, "
                f"{cpu3 - cpu2:.2f} in the 3 s after")
            settle(idle_sockets)

        # 6. Three concurrent /api/answers (default page), repeated while measuring.
        name = "6. 3 concurrent /api/answers (repeated)"
        if not over_budget(name):
            done = threading.Event()
            results = Counter()
            times = []

            def answers(src):
                for _ in range(200):  # bounded, and stops with the measuring
                    if done.is_set():
                        return
                    st, sec, d, e = request("GET", "/api/answers", src=src)
                    results[e or st] += 1
                    times.append(sec * 1000)

            threads = [threading.Thread(target=answers, args=(src,), daemon=True) for src in SPREAD[:3]]
            for th in threads:
                th.start()
            try:
                m = measure()
            finally:
                done.set()
                for th in threads:
                    th.join(REQUEST_TIMEOUT + 1)
            st, _, d, _ = request("GET", "/api/answers")
            row(name, "3 over 3 IPs", m,
                f"{sum(results.values())} answers requests: {dict(results)}, median {statistics.median(times) if times else 0:.1f} ms; "
                f"the store's page: {len(d)} bytes (a small store: trivial)")
            settle(idle_sockets)

        # 7. Cross-site POST and wrong Host.
        name = "7. cross-site POST, wrong Host"
        if not over_budget(name):
            checks = [
                ("POST /api/puzzle, Origin: http://evil.example", "POST", "/api/puzzle",
                 [("Origin", "http://evil.example"), ("Content-Type", "text/plain")], PUZZLE.encode(), None),
                ("POST /api/puzzle, Sec-Fetch-Site: cross-site", "POST", "/api/puzzle",
                 [("Sec-Fetch-Site", "cross-site")], PUZZLE.encode(), None),
                ("DELETE /api/jobs/1, Origin: http://evil.example", "DELETE", "/api/jobs/1",
                 [("Origin", "http://evil.example")], b"", None),
                ("GET cached count, Host: evil.example", "GET", CACHED, [], b"", "evil.example"),
                ("GET cached count, Host: evil.example:%d" % port, "GET", CACHED, [], b"", f"evil.example:{port}"),
            ]
            notes = []
            for label, method, target, headers, body, host in checks:
                st, sec, d, e = request(method, target, src=OTHER, headers=headers, body=body, host=host)
                notes.append(f"{label}: {st} {json_field(d, 'kind') or ''} {e or ''} in {sec * 1000:.1f} ms")
            m = measure()
            row(name, "5 requests", m, "\n    ".join(notes))
    finally:
        if server is not None:
            try:
                os.kill(server.pid, signal.SIGTERM)
                try:
                    code = server.wait(10)
                except subprocess.TimeoutExpired:
                    os.kill(server.pid, signal.SIGKILL)
                    code = server.wait(10)
                print(f"\nserver pid {server.pid} stopped (SIGTERM): exit {code}")
            except ProcessLookupError:
                pass
            try:
                with open(os.path.join(tmp, "stderr"), errors="replace") as f:
                    lines = f.read().splitlines()
                if lines:
                    print(f"server stderr ({len(lines)} lines), last 10:")
                    for line in lines[-10:]:
                        print("    " + line.replace(tmp, "$TMP"))
            except OSError:
                pass
        shutil.rmtree(tmp, ignore_errors=True)
        print(f"load average at end: {loadavg()}; the script took {time.monotonic() - START:.0f} s")


if __name__ == "__main__":
    try:
        main()
    except (KeyboardInterrupt, Stop) as e:
        print(f"stopped: {e or 'Ctrl-C'}", file=sys.stderr)
        sys.exit(130)
