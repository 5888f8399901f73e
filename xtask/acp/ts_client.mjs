// The official ACP TypeScript SDK's client side against `smith acp` (frontends/cli/tests/acp):
// initialize → session/new → session/set_mode `ask` → two prompts on a scripted model that
// edits a file, the first edit allowed and the second denied through
// session/request_permission. Prints one JSON summary line for the Rust test to check.
//
// Usage: node ts_client.mjs SMITH_BINARY SCRIPT PROJECT_DIR (SMITH_HOME and the rest come
// from the environment).
import { spawn } from "node:child_process";
import { Readable, Writable } from "node:stream";
import { client, methods, ndJsonStream, PROTOCOL_VERSION } from "@agentclientprotocol/sdk";

const [smith, script, project] = process.argv.slice(2);
const agent = spawn(smith, ["-m", "scripted/acp", "acp", "--script", script], {
  stdio: ["pipe", "pipe", "inherit"],
});
const stream = ndJsonStream(Writable.toWeb(agent.stdin), Readable.toWeb(agent.stdout));

const updates = [];
const asked = [];
// Allow the first edit, deny the second.
const answers = ["allow_once", "reject_once"];

const app = client({ name: "smith-acp-test" })
  .onNotification(methods.client.session.update, async ({ params }) => {
    updates.push(params.update);
  })
  .onRequest(methods.client.session.requestPermission, async ({ params }) => {
    asked.push(params.toolCall.toolCallId);
    const kind = answers.shift();
    const option = params.options.find((o) => o.kind === kind);
    return { outcome: { outcome: "selected", optionId: option.optionId } };
  });

const summary = await app.connectWith(stream, async (ctx) => {
  const init = await ctx.request(methods.agent.initialize, {
    protocolVersion: PROTOCOL_VERSION,
    clientCapabilities: {},
  });
  const created = await ctx.request(methods.agent.session.new, { cwd: project, mcpServers: [] });
  const sessionId = created.sessionId;
  await ctx.request(methods.agent.session.setMode, { sessionId, modeId: "ask" });
  const stops = [];
  for (const words of ["edit the notes", "edit them again"]) {
    const answer = await ctx.request(methods.agent.session.prompt, {
      sessionId,
      prompt: [{ type: "text", text: words }],
    });
    stops.push(answer.stopReason);
  }
  const listed = await ctx.request(methods.agent.session.list, {});
  return {
    protocolVersion: init.protocolVersion,
    agent: init.agentInfo?.name,
    sessionId,
    stops,
    asked,
    listed: listed.sessions.map((s) => s.sessionId),
    commands: updates
      .filter((u) => u.sessionUpdate === "available_commands_update")
      .flatMap((u) => u.availableCommands.map((c) => c.name)),
    // The commands arrive once the session is open, in no fixed order with the mode's update.
    shapes: updates.filter((u) => u.sessionUpdate !== "available_commands_update").map((u) =>
      u.sessionUpdate === "tool_call"
        ? `tool_call:${u.toolCallId}:${u.kind}`
        : u.sessionUpdate === "tool_call_update"
          ? `update:${u.toolCallId}:${u.status}`
          : u.content?.type === "text"
            ? `${u.sessionUpdate}:${u.content.text}`
            : u.sessionUpdate,
    ),
  };
});
agent.stdin.end();
await new Promise((resolve) => agent.on("close", resolve));
console.log(JSON.stringify(summary));
