// Drives reins's answers to the Agent SDK's session control methods
// (applyFlagSettings, readFile, seedReadState, setMcpServers,
// reloadSkills...) with the TypeScript SDK (run by sdkctl_test.go).
// Prints like agent.mjs: {"msg": …} per message, then {"summary": …}.
import { query, createSdkMcpServer, tool } from "@anthropic-ai/claude-agent-sdk";
import { z } from "zod";
import fs from "node:fs";
import path from "node:path";

const scenario = process.argv[2];
const summary = {};
const print = (v) => process.stdout.write(JSON.stringify(v) + "\n");
const failure = (e) => "rejected: " + String(e?.message ?? e);

const base = {
  pathToClaudeCodeExecutable: process.env.REINS_BIN,
  stderr: (d) => process.stderr.write(d),
};

// session runs a streaming-input query: steps are called in order, each
// after the previous message's result, and may return a prompt to send
// next (or nothing to end the input).
async function session(options, first, steps) {
  let resolveResult;
  const nextResult = () => new Promise((r) => (resolveResult = r));
  let q;
  const user = (text) => ({ type: "user", message: { role: "user", content: text }, parent_tool_use_id: null, session_id: "" });
  async function* messages() {
    let done = nextResult();
    yield user(first);
    await done;
    for (const step of steps) {
      const prompt = await step(q);
      if (!prompt) return;
      done = nextResult();
      yield user(prompt);
      await done;
    }
  }
  q = query({ prompt: messages(), options: { ...base, ...options } });
  for await (const m of q) {
    print({ msg: m });
    if (m.type === "result") resolveResult();
  }
}

// applyFlagSettings: a refused overlay changes nothing; a valid one
// switches the model and adds a Bash allow rule, a working folder and an
// env variable for the next turn; a null model goes back to the default.
async function flagSettingsScenario() {
  await session({}, "First.", [
    async (q) => {
      summary.badType = await q.applyFlagSettings({ model: 5 }).then(() => "applied", failure);
      summary.misspelt = await q.applyFlagSettings({ permisions: { allow: ["Bash"] } }).then(() => "applied", failure);
      summary.badRule = await q.applyFlagSettings({ permissions: { allow: ["Bash(unclosed"] } }).then(() => "applied", failure);
      await q.applyFlagSettings({
        model: "sonnet",
        env: { FLAG_VAR: "from-flag" },
        permissions: { allow: ["Bash(echo:*)"], additionalDirectories: [process.env.EXTRA_DIR] },
      });
      const settings = await q.getSettings();
      summary.effectiveEnv = settings.effective.env;
      summary.flagSource = settings.sources.find((s) => s.source === "flagSettings");
      summary.flagRules = (await q.listPermissionRules()).state.rules.filter((r) => r.source === "flagSettings");
      return "Echo it.";
    },
    async (q) => {
      await q.applyFlagSettings({ model: null });
      return "Third.";
    },
  ]);
}

// updateSettings: outputStyle goes into the local settings file beside
// what it holds; other keys are refused.
async function updateSettingsScenario() {
  await session({}, "First.", [
    async (q) => {
      await q.updateSettings("localSettings", { outputStyle: "Explanatory" });
      summary.refused = await q.updateSettings("localSettings", { model: "haiku" }).then(() => "applied", failure);
      await q.updateSettings("userSettings", { effortLevel: "high" });
      return undefined;
    },
  ]);
}

// readFile and seedReadState.
async function filesScenario() {
  const cwd = process.cwd();
  const mtime = (p) => Math.floor(fs.statSync(path.join(cwd, p)).mtimeMs);
  await session({ permissionMode: "acceptEdits" }, "First.", [
    async (q) => {
      summary.whole = await q.readFile("notes.txt");
      summary.cut = await q.readFile(path.join(cwd, "notes.txt"), { maxBytes: 5 });
      summary.b64 = await q.readFile("notes.txt", { encoding: "base64" });
      summary.denied = await q.readFile("secret.txt");
      summary.missing = await q.readFile("nope.txt");
      await q.seedReadState(path.join(cwd, "seeded.txt"), mtime("seeded.txt"));
      await q.seedReadState("stale.txt", mtime("stale.txt") - 5000);
      return "Edit both.";
    },
  ]);
}

const shout = tool("shout", "Shout the text back.", { text: z.string() }, async (args) => ({
  content: [{ type: "text", text: args.text.toUpperCase() + "!" }],
}));
const tools = createSdkMcpServer({ name: "tools", version: "1.0.0", tools: [shout] });

const whisper = tool("whisper", "Whisper the text back.", { text: z.string() }, async (args) => ({
  content: [{ type: "text", text: args.text.toLowerCase() + "..." }],
}));
const extra = createSdkMcpServer({ name: "extra", version: "1.0.0", tools: [whisper] });

// setMcpServers replaces the SDK-hosted server with a stdio one (and a
// broken one) at run time.
async function mcpSetScenario() {
  const reverser = { command: process.execPath, args: [new URL("./stdio-server.mjs", import.meta.url).pathname] };
  await session({ mcpServers: { tools }, allowedTools: ["mcp__reverser__reverse", "mcp__extra__whisper"] }, "First.", [
    async (q) => {
      summary.set = await q.setMcpServers({ reverser, broken: { command: "/nonexistent/reins-test-server" } });
      summary.status = (await q.mcpServerStatus()).map((s) => ({ name: s.name, status: s.status }));
      return "Reverse it.";
    },
    async (q) => {
      // A server the SDK hosts, added at run time, is reached through it.
      summary.again = await q.setMcpServers({ reverser, extra });
      summary.statusAgain = (await q.mcpServerStatus()).map((s) => ({ name: s.name, status: s.status }));
      return "Whisper it.";
    },
  ]);
}

// reloadSkills and friends, the initialize answer's agents and account,
// and reinitialize.
async function reloadScenario() {
  const cwd = process.cwd();
  await session({}, "First.", [
    async (q) => {
      summary.before = (await q.reloadSkills()).skills.map((s) => s.name);
      const dir = path.join(cwd, ".claude", "skills", "fresh-skill");
      fs.mkdirSync(dir, { recursive: true });
      fs.writeFileSync(path.join(dir, "SKILL.md"), "---\nname: fresh-skill\ndescription: Written while the session runs.\n---\nDo the fresh thing.\n");
      summary.after = (await q.reloadSkills()).skills;
      const plugins = await q.reloadPlugins();
      summary.plugins = { plugins: plugins.plugins, hasSkill: plugins.commands.some((c) => c.name === "fresh-skill"), errors: plugins.error_count };
      summary.styles = await q.reloadOutputStyles();
      summary.agents = (await q.supportedAgents()).map((a) => a.name);
      summary.account = await q.accountInfo();
      const again = await q.reinitialize();
      summary.reinit = { hasSkill: again.commands.some((c) => c.name === "fresh-skill"), agents: again.agents.length };
      return "/fresh-skill";
    },
  ]);
}

// plugins: the SDK's plugins option loads a plugin folder (as --plugin-dir,
// or in the initialize request with pluginDelivery "initialize"); its
// command runs, and reloadPlugins lists it.
async function pluginsScenario(delivery) {
  const options = { plugins: [{ type: "local", path: process.env.PLUGIN_DIR }] };
  if (delivery) options.pluginDelivery = delivery;
  await session(options, "/tp:hi Ada", [
    async (q) => {
      const r = await q.reloadPlugins();
      summary.reload = { plugins: r.plugins.map((p) => p.name + "@" + p.path), hasCommand: r.commands.some((c) => c.name === "tp:hi"), errors: r.error_count };
      return undefined;
    },
  ]);
}

// readMcpResource reads an MCP Apps widget of a server reins runs.
async function mcpResourceScenario() {
  const ui = { command: process.execPath, args: [new URL("./ui-server.mjs", import.meta.url).pathname] };
  await session({ mcpServers: { ui } }, "First.", [
    async (q) => {
      summary.widget = await q.readMcpResource("ui", "ui://widget/main");
      summary.file = await q.readMcpResource("ui", "file:///notes.txt").then(() => "read", failure);
      summary.unknown = await q.readMcpResource("nope", "ui://widget/main").then(() => "read", failure);
      return undefined;
    },
  ]);
}

try {
  if (scenario === "flag-settings") await flagSettingsScenario();
  else if (scenario === "update-settings") await updateSettingsScenario();
  else if (scenario === "files") await filesScenario();
  else if (scenario === "mcp-set") await mcpSetScenario();
  else if (scenario === "reload") await reloadScenario();
  else if (scenario === "plugins") await pluginsScenario();
  else if (scenario === "plugins-initialize") await pluginsScenario("initialize");
  else if (scenario === "mcp-resource") await mcpResourceScenario();
  else throw new Error("unknown scenario " + scenario);
} catch (e) {
  summary.error = String(e && e.stack || e);
}
print({ summary });
