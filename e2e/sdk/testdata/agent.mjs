// Drives reins with the TypeScript Agent SDK (run by tssdk_test.go).
// Every message the SDK yields is printed as {"msg": …}; the last line is
// {"summary": …} with what the callbacks saw and what the control methods
// returned. The scenario is the first argument.
import { query, createSdkMcpServer, tool } from "@anthropic-ai/claude-agent-sdk";
import { z } from "zod";

const scenario = process.argv[2];
const summary = { hooks: [], asks: [] };
const print = (v) => process.stdout.write(JSON.stringify(v) + "\n");

const shout = tool("shout", "Shout the text back in capitals.", { text: z.string() }, async (args) => ({
  content: [{ type: "text", text: args.text.toUpperCase() + "!" }],
}));
const tools = createSdkMcpServer({ name: "tools", version: "1.0.0", tools: [shout] });

const base = {
  pathToClaudeCodeExecutable: process.env.REINS_BIN,
  stderr: (d) => process.stderr.write(d),
};

async function toolsScenario() {
  const q = query({
    prompt: "Shout hi.",
    options: {
      ...base,
      mcpServers: { tools },
      canUseTool: async (name, input) => {
        summary.asks.push({ name, input });
        if (input.text === "secret") return { behavior: "deny", message: "No secrets." };
        return { behavior: "allow", updatedInput: { text: input.text + " there" } };
      },
      hooks: {
        PreToolUse: [{ matcher: "mcp__tools__shout", hooks: [async (input) => { summary.hooks.push(input.tool_input); return {}; }] }],
      },
    },
  });
  for await (const m of q) print({ msg: m });
}

async function streamScenario() {
  let resolveResult;
  const nextResult = () => new Promise((r) => (resolveResult = r));
  let q;
  async function* messages() {
    let done = nextResult();
    yield { type: "user", message: { role: "user", content: "One." }, parent_tool_use_id: null, session_id: "" };
    await done;
    await q.setModel("sonnet");
    await q.setPermissionMode("acceptEdits");
    summary.mcpStatus = await q.mcpServerStatus();
    // No server has this name: the refusal shows the request was read.
    summary.toggle = await q.toggleMcpServer("nope", false).then(() => "accepted", (e) => String(e?.message ?? e));
    summary.rewind = await q.rewindFiles("00000000-0000-4000-8000-000000000000", { dryRun: true }).catch((e) => String(e?.message ?? e));
    summary.context = await q.getContextUsage();
    summary.models = (await q.supportedModels()).map((m) => m.value);
    done = nextResult();
    yield { type: "user", message: { role: "user", content: "Two." }, parent_tool_use_id: null, session_id: "" };
    await done;
    done = nextResult();
    summary.interrupting = true;
    yield { type: "user", message: { role: "user", content: "Three, slowly." }, parent_tool_use_id: null, session_id: "" };
    await done;
  }
  q = query({ prompt: messages(), options: { ...base, includePartialMessages: true } });
  let interrupted = false;
  for await (const m of q) {
    print({ msg: m });
    if (m.type === "stream_event" && summary.interrupting && !interrupted) {
      interrupted = true;
      await q.interrupt();
    }
    if (m.type === "result") resolveResult();
  }
}

// The effort and thinking options reach the CLI (--effort,
// --thinking-display); between turns applyFlagSettings changes the effort
// and setMaxThinkingTokens the thinking display.
async function effortScenario() {
  let resolveResult;
  const nextResult = () => new Promise((r) => (resolveResult = r));
  let q;
  async function* messages() {
    let done = nextResult();
    yield { type: "user", message: { role: "user", content: "One." }, parent_tool_use_id: null, session_id: "" };
    await done;
    await q.applyFlagSettings({ effortLevel: "max" });
    await q.setMaxThinkingTokens(null, "summarized");
    summary.models = (await q.supportedModels()).map((m) => ({ value: m.value, supportsEffort: m.supportsEffort, levels: m.supportedEffortLevels }));
    done = nextResult();
    yield { type: "user", message: { role: "user", content: "Two." }, parent_tool_use_id: null, session_id: "" };
    await done;
  }
  q = query({ prompt: messages(), options: { ...base, effort: "low", thinking: { type: "adaptive", display: "omitted" } } });
  for await (const m of q) {
    print({ msg: m });
    if (m.type === "result") resolveResult();
  }
}

// The SDK sends the MCP servers reins starts (here a stdio one) in the
// initialize request instead of on the command line, and ends the
// session unless the answer says they were taken.
async function mcpInitializeScenario() {
  const reverser = { command: process.execPath, args: [new URL("./stdio-server.mjs", import.meta.url).pathname] };
  const q = query({
    prompt: "Reverse and shout.",
    options: {
      ...base,
      mcpServersDelivery: "initialize",
      mcpServers: { tools, reverser },
      allowedTools: ["mcp__reverser__reverse", "mcp__tools__shout"],
    },
  });
  for await (const m of q) {
    print({ msg: m });
    if (m.type === "system" && m.subtype === "init") summary.applied = (await q.initializationResult()).mcp_servers_applied;
  }
}

// The main conversation runs as an agent the agents option defines.
async function mainAgentScenario() {
  const q = query({
    prompt: "Review this.",
    options: {
      ...base,
      agent: "reviewer",
      agents: { reviewer: { description: "Reviews code.", prompt: "You are REVIEWER-PROMPT.", tools: ["Read", "Grep"], model: "haiku" } },
    },
  });
  for await (const m of q) print({ msg: m });
}

// A PreToolUse guard whose callback fails, on a matcher with onFailure
// "block": the call must not run.
async function hookBlockScenario() {
  const q = query({
    prompt: "Make the file.",
    options: {
      ...base,
      allowedTools: ["Bash"],
      hooks: { PreToolUse: [{ matcher: "Bash", onFailure: "block", hooks: [async () => { throw new Error("guard is down"); }] }] },
    },
  });
  for await (const m of q) print({ msg: m });
}

// Auto mode from the permissionMode option: the classifier (the fake
// model's side turns) allows one call and blocks the other without
// canUseTool; the block reaches a PermissionDenied hook callback.
async function autoModeScenario() {
  summary.denied = [];
  const q = query({
    prompt: "Shout twice.",
    options: {
      ...base,
      permissionMode: "auto",
      mcpServers: { tools },
      canUseTool: async (name, input) => {
        summary.asks.push({ name, input });
        return { behavior: "allow", updatedInput: input };
      },
      hooks: {
        PermissionDenied: [{ hooks: [async (input) => { summary.denied.push({ tool: input.tool_name, reason: input.reason }); return {}; }] }],
      },
    },
  });
  for await (const m of q) print({ msg: m });
}

try {
  if (scenario === "tools") await toolsScenario();
  else if (scenario === "auto-mode") await autoModeScenario();
  else if (scenario === "hook-block") await hookBlockScenario();
  else if (scenario === "main-agent") await mainAgentScenario();
  else if (scenario === "mcp-initialize") await mcpInitializeScenario();
  else if (scenario === "stream") await streamScenario();
  else if (scenario === "effort") await effortScenario();
  else throw new Error("unknown scenario " + scenario);
} catch (e) {
  summary.error = String(e && e.stack || e);
}
print({ summary });
