"""A raw MCP server over stdio for Smith's MCP client tests: one JSON-RPC message per line.

Modes (argv[1]):
  ok      answers `initialize`, lists tools — `echo` (progress, structured content), `crash`
          (exits with status 3 mid-call, after a line on stderr), `weird.name` (a name Smith
          must rewrite, and `weird_name`, which Smith would offer under the same name: skipped),
          `bad` (an input schema that is not an object: skipped by Smith),
          `hang` (says "waiting" and never answers), `huge` (a 10 MB answer), `surrogate`
          (an answer holding a lone UTF-16 surrogate), `grow` (says its tools changed and
          lists `grown` from then on), `write` (writes the file its `path` argument names,
          or says why it could not) — and
          writes a line that is not JSON-RPC before its first answer (skipped by Smith).
  silent  never answers (Smith's timeout names `initialize`).
  garbage writes only lines that are not JSON-RPC.
"""

import json
import sys

MODE = sys.argv[1] if len(sys.argv) > 1 else "ok"


def send(message):
    sys.stdout.write(json.dumps(message) + "\n")
    sys.stdout.flush()


TOOLS = [
    {
        "name": "echo",
        "description": "Echo the text back.",
        "inputSchema": {
            "type": "object",
            "properties": {"text": {"type": "string"}},
            "required": ["text"],
        },
    },
    {"name": "crash", "description": "Exit mid-call.", "inputSchema": {"type": "object"}},
    {"name": "weird.name", "description": "A dotted name.", "inputSchema": {"type": "object"}},
    {"name": "weird_name", "description": "Written as weird.name is.", "inputSchema": {"type": "object"}},
    {"name": "bad", "description": "A malformed schema.", "inputSchema": "not a schema"},
    {"name": "hang", "description": "Never answers.", "inputSchema": {"type": "object"}},
    {"name": "huge", "description": "Answers 10 MB.", "inputSchema": {"type": "object"}},
    {"name": "surrogate", "description": "A lone surrogate.", "inputSchema": {"type": "object"}},
    {"name": "grow", "description": "Adds a tool.", "inputSchema": {"type": "object"}},
    {"name": "write", "description": "Writes a file.", "inputSchema": {"type": "object"}},
]
GROWN = {"name": "grown", "description": "Added by grow.", "inputSchema": {"type": "object"}}

if MODE == "ok":
    sys.stdout.write("this line is not JSON-RPC\n")
    sys.stdout.flush()

for line in sys.stdin:
    if MODE == "silent":
        continue
    if MODE == "garbage":
        sys.stdout.write("garbage " + line)
        sys.stdout.flush()
        continue
    message = json.loads(line)
    method = message.get("method")
    if "id" not in message:
        continue
    rid = message["id"]
    params = message.get("params") or {}
    if method == "initialize":
        send({"jsonrpc": "2.0", "id": rid, "result": {
            "protocolVersion": params.get("protocolVersion"),
            "capabilities": {"tools": {}},
            "serverInfo": {"name": "fake", "version": "1"},
        }})
    elif method == "tools/list":
        send({"jsonrpc": "2.0", "id": rid, "result": {"tools": TOOLS}})
    elif method == "tools/call" and params.get("name") == "write":
        try:
            with open(params["arguments"]["path"], "w") as f:
                f.write("written by the server\n")
            said = "wrote"
        except OSError as e:
            said = "failed: " + e.strerror
        send({"jsonrpc": "2.0", "id": rid, "result": {
            "content": [{"type": "text", "text": said}]}})
    elif method == "tools/call" and params.get("name") == "grow":
        TOOLS.append(GROWN)
        send({"jsonrpc": "2.0", "method": "notifications/tools/list_changed"})
        send({"jsonrpc": "2.0", "id": rid, "result": {
            "content": [{"type": "text", "text": "grew"}]}})
    elif method == "tools/call" and params.get("name") == "echo":
        token = (params.get("_meta") or {}).get("progressToken")
        if token is not None:
            send({"jsonrpc": "2.0", "method": "notifications/progress",
                  "params": {"progressToken": token, "progress": 1, "total": 2,
                             "message": "halfway"}})
        text = params["arguments"]["text"]
        send({"jsonrpc": "2.0", "id": rid, "result": {
            "content": [{"type": "text", "text": "echo: " + text}],
            "structuredContent": {"echoed": text},
        }})
    elif method == "tools/call" and params.get("name") == "crash":
        sys.stderr.write("dying on purpose\n")
        sys.stderr.flush()
        sys.exit(3)
    elif method == "tools/call" and params.get("name") == "hang":
        token = (params.get("_meta") or {}).get("progressToken")
        send({"jsonrpc": "2.0", "method": "notifications/progress",
              "params": {"progressToken": token, "progress": 0, "message": "waiting"}})
    elif method == "tools/call" and params.get("name") == "huge":
        send({"jsonrpc": "2.0", "id": rid, "result": {
            "content": [{"type": "text", "text": "x" * (10 << 20)}]}})
    elif method == "tools/call" and params.get("name") == "surrogate":
        # As JavaScript's JSON.stringify writes a lone surrogate.
        sys.stdout.write(json.dumps({"jsonrpc": "2.0", "id": rid, "result": {
            "content": [{"type": "text", "text": "half \ud800 pair"}]}}) + "\n")
        sys.stdout.flush()
    elif method == "tools/call":
        send({"jsonrpc": "2.0", "id": rid, "result": {
            "content": [{"type": "text", "text": "called " + params.get("name")}]}})
    else:
        send({"jsonrpc": "2.0", "id": rid,
              "error": {"code": -32601, "message": "no " + str(method)}})
