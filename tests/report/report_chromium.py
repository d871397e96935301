"""Run Debian's headless Chromium on a local HTML file: screenshot plus the console messages it logged."""
from __future__ import annotations

import re
import shutil
import subprocess
import tempfile
from pathlib import Path

FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         "--hide-scrollbars", "--enable-logging=stderr", "--v=1",
         # keep Chromium's own background services quiet: the page itself must need nothing
         "--disable-domain-reliability", "--disable-client-side-phishing-detection", "--no-pings",
         "--disable-default-apps", "--no-default-browser-check",
         "--disable-features=Translate,OptimizationHints,MediaRouter,AutofillServerCommunication"]
CONSOLE = re.compile(r":CONSOLE(?:\(\d+\)|:\d+)\]\s*(.*)")


def chromium_binary():
    return shutil.which("chromium") or shutil.which("chromium-browser")


def render(html_path, png_path, width=1000, height=1600, scale=0.5) -> dict:
    """Screenshot ``html_path`` into ``png_path``; returns {'console': [...], 'returncode': int, 'log': str}."""
    exe = chromium_binary()
    with tempfile.TemporaryDirectory(prefix="caveat-chromium-") as profile:
        cmd = [exe, *FLAGS, f"--user-data-dir={profile}", f"--window-size={width},{height}",
               f"--force-device-scale-factor={scale}", f"--screenshot={png_path}",
               Path(html_path).resolve().as_uri()]
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=120, errors="replace")
    log = p.stderr
    return {"returncode": p.returncode, "console": CONSOLE.findall(log), "log": log}


def dump_dom(html_path, script: str = "") -> dict:
    """Load ``html_path`` in headless Chromium, run ``script`` after the page's own scripts
    (as a person typing would: it is appended to a copy of the page beside the original),
    and return {'dom': the DOM as serialized after load, 'console': [...], 'returncode'}."""
    src = Path(html_path)
    page = src.with_name(f".{src.stem}.probe.html")
    html = src.read_text(encoding="utf-8")
    page.write_text(html.replace("</body>", f"<script>{script}</script></body>") if script else html,
                    encoding="utf-8")
    try:
        with tempfile.TemporaryDirectory(prefix="caveat-chromium-") as profile:
            cmd = [chromium_binary(), *FLAGS, f"--user-data-dir={profile}", "--dump-dom", page.resolve().as_uri()]
            p = subprocess.run(cmd, capture_output=True, text=True, timeout=120, errors="replace")
    finally:
        page.unlink()
    return {"dom": p.stdout, "console": CONSOLE.findall(p.stderr), "returncode": p.returncode, "log": p.stderr}
