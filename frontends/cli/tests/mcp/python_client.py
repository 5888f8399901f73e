"""The official MCP Python SDK client (`mcp`, pinned in xtask/mcp/requirements.txt) driving the
built `smith mcp` over stdio. Run by frontends/cli/tests/mcp/sdk.rs:

    python python_client.py SMITH HOME WORKDIR PROJECT

PROJECT is a trusted project directory the second connection offers as its root.

Each scenario asserts what the MCP specification and Smith's guide promise; the script prints
one JSON object of what the Rust test checks against the session file, and exits non-zero on
the first failed assertion.
"""

import json
import os
import sys

import anyio
import mcp.types as types
from mcp.client import Client
from mcp.client.stdio import StdioServerParameters

SMITH, HOME, WORK, PROJECT = sys.argv[1:5]


def server(*extra):
    return StdioServerParameters(
        command=SMITH,
        args=["-c", "model=scripted/demo", "--allow-process", *extra, "mcp"],
        env={
            "SMITH_HOME": HOME,
            "HOME": HOME,
            "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
            # The test's shared compile cache and scratch directory, when it gives them.
            **{k: os.environ[k] for k in ("SMITH_CACHE_HOME", "TMPDIR") if k in os.environ},
        },
        cwd=WORK,
    )


async def wait_for_file(path):
    """Poll for a gate file the tool creates (no timer decides anything: a generous bound)."""
    for _ in range(12000):
        if os.path.exists(path):
            return
        await anyio.sleep(0.01)
    raise AssertionError(f"{path} never appeared")


async def main():
    out = {}
    updates = []
    progress = []

    async def on_message(message):
        method = getattr(message, "method", None)
        if method == "notifications/resources/updated":
            updates.append(message.params.uri)

    async def on_progress(p, total, message):
        progress.append((p, message))

    # mode "auto" (the default) probes server/discover first and falls back to initialize.
    async with Client(server(), message_handler=on_message) as c:
        tools = {t.name: t for t in (await c.list_tools()).tools}
        for name in ["read", "write", "edit", "ls", "find", "grep", "bash", "smith_run"]:
            assert name in tools, f"{name} not listed: {sorted(tools)}"
        assert tools["read"].input_schema["type"] == "object"

        # A tool call: its output as text content, its effect recorded.
        r = await c.call_tool("read", {"path": "notes.txt"})
        assert not r.is_error, r
        assert r.content[0].text.startswith("hello from the test\n"), r.content[0].text

        # A tool with an output schema: structured content the SDK checks against it.
        r = await c.call_tool("grep", {"pattern": "hello from"})
        assert not r.is_error, r
        assert r.structured_content["matches"][0]["path"] == "notes.txt", r.structured_content

        # Schema-invalid arguments: an isError result, nothing run.
        r = await c.call_tool("read", {"no_such_argument": 1})
        assert r.is_error and "input schema" in r.content[0].text, r

        # Resources: the server's session, then that session, read in a page.
        listed = [x.uri for x in (await c.list_resources()).resources]
        assert listed[0] == "smith://server/session", listed
        own = json.loads((await c.read_resource("smith://server/session")).contents[0].text)
        session = own["session"]
        out["session"] = session
        assert f"smith://session/{session}" in listed, listed
        page = json.loads((await c.read_resource(f"smith://session/{session}")).contents[0].text)
        kinds = [e["kind"] for e in page["entries"]]
        assert "effect_intent" in kinds and "effect_completion" in kinds, kinds
        text = (await c.read_resource(f"smith://session/{session}/text")).contents[0]
        assert text.mime_type == "text/plain", text
        assert text.text.startswith(f"session {session}: "), text.text
        assert sum(1 for line in text.text.splitlines() if line.startswith("#")) == len(kinds), text.text
        templates = [t.uri_template for t in (await c.list_resource_templates()).resource_templates]
        assert "smith://session/{id}/entries/{cursor}" in templates, templates

        # Subscribed, a write to the session is announced.
        await c.subscribe_resource(f"smith://session/{session}")
        r = await c.call_tool("write", {"path": "made.txt", "content": "made\n"})
        assert not r.is_error, r
        for _ in range(12000):
            if updates:
                break
            await anyio.sleep(0.01)
        assert updates == [f"smith://session/{session}"] or updates[0] == f"smith://session/{session}", updates
        out["updates"] = len(updates)

        # The agent tool with a progress token: progress notifications, then the answer.
        r = await c.call_tool("smith_run", {"prompt": "hello"}, progress_callback=on_progress)
        assert not r.is_error, r
        assert "You said: hello" in r.content[0].text, r.content[0].text
        assert progress, "no progress notification"
        steps = [p for p, _ in progress]
        assert steps == sorted(steps) and len(set(steps)) == len(steps), steps
        out["progress"] = len(progress)

        # Cancel a long bash call once it has started: the client sends notifications/cancelled.
        gate = os.path.join(WORK, "begun")
        result = {}

        async def long_call():
            result["r"] = await c.call_tool("bash", {"command": "touch begun; sleep 4201.7"})

        async with anyio.create_task_group() as tg:
            scope = anyio.CancelScope()

            async def runner():
                with scope:
                    await long_call()

            tg.start_soon(runner)
            await wait_for_file(gate)
            scope.cancel()
        assert "r" not in result, "the cancelled call returned"
        # The server goes on.
        await c.send_ping()
        r = await c.call_tool("ls", {"path": "."})
        assert not r.is_error and "made.txt" in r.content[0].text, r
        await c.set_logging_level("warning")
    out.update(await asks_and_roots())
    print(json.dumps(out))


async def asks_and_roots():
    """A client with roots, elicitation and a logging callback: its root (a trusted project)
    becomes where tools run; the `ask` permission mode asks before bash runs a program, answered
    "Allow once" through the elicitation callback; bash logs as its program starts."""
    asked = []
    logs = []

    async def on_elicit(context, params):
        choice = params.requested_schema["properties"]["choice"]
        assert choice["type"] == "string" and "Allow once" in choice["enum"], params
        asked.append(params.message)
        return types.ElicitResult(action="accept", content={"choice": "Allow once"})

    async def on_roots(context):
        return types.ListRootsResult(roots=[types.Root(uri=f"file://{PROJECT}", name="project")])

    async def on_log(params):
        logs.append((params.level, params.logger, str(params.data)))

    async with Client(
        server("-c", "permissions.mode=ask"),
        elicitation_callback=on_elicit,
        list_roots_callback=on_roots,
        logging_callback=on_log,
    ) as c:
        for _ in range(12000):
            if any("tools now run in" in d for _, _, d in logs):
                break
            await anyio.sleep(0.01)
        else:
            raise AssertionError(f"the root was never taken: {logs}")
        r = await c.call_tool("bash", {"command": "echo confirmed > confirmed.txt"})
        assert not r.is_error, r
        assert len(asked) == 1 and "confirmed.txt" in asked[0], asked
        assert any(lvl == "info" and who == "bash" and "running" in d for lvl, who, d in logs), logs
    return {"asked": len(asked), "logs": len(logs)}


anyio.run(main)
