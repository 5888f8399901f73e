// The official MCP TypeScript SDK client (@modelcontextprotocol/sdk, pinned in package-lock.json)
// driving the built `smith mcp` over stdio. Run by frontends/cli/tests/mcp/sdk.rs:
//
//     node ts_client.mjs SMITH HOME WORKDIR
//
// Asserts what the MCP specification and Smith's guide promise; prints one JSON object of what
// the Rust test checks against the session file; exits non-zero on the first failed assertion.
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { ResourceUpdatedNotificationSchema } from "@modelcontextprotocol/sdk/types.js";

const [smith, home, work] = process.argv.slice(2);
const env = { SMITH_HOME: home, HOME: home, PATH: process.env.PATH ?? "/usr/bin:/bin" };
for (const k of ["SMITH_CACHE_HOME", "TMPDIR"]) if (process.env[k]) env[k] = process.env[k];

const transport = new StdioClientTransport({
  command: smith,
  args: ["-c", "model=scripted/demo", "--allow-process", "mcp"],
  env,
  cwd: work,
  stderr: "inherit",
});
const client = new Client({ name: "smith-test", version: "1.0.0" });
// What the SDK reports as protocol errors (e.g. "Received a response for an unknown message
// ID", which a response to a cancelled request would raise).
const protocolErrors = [];
client.onerror = (e) => protocolErrors.push(String(e));
const updates = [];
client.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) => updates.push(n.params.uri));
await client.connect(transport);
const out = { revision: client.getServerVersion()?.name };

const poll = async (done) => {
  for (let i = 0; i < 12000 && !done(); i++) await new Promise((r) => setTimeout(r, 10));
  assert.ok(done(), "never happened");
};

const tools = (await client.listTools()).tools.map((t) => t.name);
for (const name of ["read", "write", "ls", "bash", "smith_run"]) assert.ok(tools.includes(name), `${name} missing: ${tools}`);

let r = await client.callTool({ name: "read", arguments: { path: "notes.txt" } });
assert.equal(r.isError, false);
assert.ok(r.content[0].text.startsWith("hello from the test\n"), r.content[0].text);
r = await client.callTool({ name: "read", arguments: { path: 7 } });
assert.equal(r.isError, true);

const listed = (await client.listResources()).resources.map((x) => x.uri);
assert.equal(listed[0], "smith://server/session");
const own = JSON.parse((await client.readResource({ uri: "smith://server/session" })).contents[0].text);
out.session = own.session;
const uri = `smith://session/${own.session}`;
await client.subscribeResource({ uri });
r = await client.callTool({ name: "write", arguments: { path: "made-ts.txt", content: "ts\n" } });
assert.equal(r.isError, false);
await poll(() => updates.includes(uri));

const progress = [];
r = await client.callTool({ name: "smith_run", arguments: { prompt: "from ts" } }, undefined, {
  onprogress: (p) => progress.push(p.progress),
});
assert.equal(r.isError, false);
assert.ok(r.content[0].text.includes("You said: from ts"), r.content[0].text);
assert.ok(progress.length > 0, "no progress");
out.progress = progress.length;

// Cancel a long bash call once it has started: the SDK sends notifications/cancelled.
const gate = path.join(work, "begun-ts");
const abort = new AbortController();
const call = client.callTool({ name: "bash", arguments: { command: "touch begun-ts; sleep 4202.9" } }, undefined, {
  signal: abort.signal,
});
await poll(() => fs.existsSync(gate));
const written = updates.length;
abort.abort("enough");
await assert.rejects(call);
// The stopped program's effect is recorded (the session announces the write) as the call
// ends; a response to the cancelled request would come then, before this ping's.
await poll(() => updates.length > written);
await client.ping();
// The SDK hands notifications to their handlers in a microtask but settles responses at once
// (shared/protocol.js: `_onnotification` vs `_onresponse`), so a progress notification the
// server wrote just before a call's response, read in the same chunk, finds its token gone
// and is reported as "unknown token" — the SDK's own race, not a response to a cancelled
// request; every other protocol error still fails the test.
const sdkRace = (e) => e.includes("Received a progress notification for an unknown token");
assert.deepEqual(protocolErrors.filter((e) => !sdkRace(e)), [], "a cancelled request was answered");
r = await client.callTool({ name: "ls", arguments: { path: "." } });
assert.ok(r.content[0].text.includes("made-ts.txt"), r.content[0].text);
await client.close();

// A second server, its model given before the command (`smith -m MODEL mcp`): a `smith_run`
// turn held at a gate (its bash call waits for a file) while a `read` is answered beside it.
const script = path.join(work, "gate.kdl");
fs.writeFileSync(
  script,
  'round {\n    tool-call id="g1" name="bash" arguments=#"{"command": "touch begun-gate; while [ ! -e gate-open ]; do sleep 0.05; done"}"#\n    stop "tool_use"\n}\nround { echo; stop "end_turn" }\n',
);
const gated = new Client({ name: "smith-test-gate", version: "1.0.0" });
await gated.connect(
  new StdioClientTransport({
    command: smith,
    args: ["-m", "scripted/gate", "mcp", "--script", script, "--allow-process"],
    env,
    cwd: work,
    stderr: "inherit",
  }),
);
let turnDone = false;
const turn = gated.callTool({ name: "smith_run", arguments: { prompt: "wait for the gate" } });
turn.then(() => {
  turnDone = true;
});
await poll(() => fs.existsSync(path.join(work, "begun-gate")));
r = await gated.callTool({ name: "read", arguments: { path: "notes.txt" } });
assert.equal(r.isError, false);
assert.ok(r.content[0].text.startsWith("hello from the test\n"), r.content[0].text);
assert.equal(turnDone, false, "the read waited for the turn");
fs.writeFileSync(path.join(work, "gate-open"), "");
r = await turn;
assert.equal(r.isError, false, JSON.stringify(r));
await gated.close();
console.log(JSON.stringify(out));
