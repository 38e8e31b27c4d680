#!/usr/bin/env bash
# The package as a user gets it: pack the tarball, install it into a fresh project, and use it
# the three ways users do: an ESM import, a TypeScript compile against its types, and the CLI.
# require() works where Node.js can require an ES module (20.19+, 22.12+), and elsewhere fails
# with a one-line message saying how to import it.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
work="$(mktemp -d "${TMPDIR:-/tmp}/harness-events-package-XXXXXX")"
trap 'rm -rf "$work"' EXIT

tarball="$(cd "$root" && npm pack --silent --ignore-scripts --pack-destination "$work" | tail -1)"
ts="$(node -p "require('$root/node_modules/typescript/package.json').version")"
types="$(node -p "require('$root/node_modules/@types/node/package.json').version")"
cd "$work"
npm init -y > /dev/null
npm pkg set type=module > /dev/null
npm install --no-audit --no-fund --loglevel=error "./$tarball" "typescript@$ts" "@types/node@$types" > /dev/null

echo "package: $(tar -tzf "$tarball" | wc -l) files"
node -e "
  import('harness-events').then(async ({ normalize }) => {
    const { Readable } = await import('node:stream');
    const line = JSON.stringify({ type: 'assistant', message: { id: 'm', content: [{ type: 'text', text: 'hi' }] } });
    const events = [];
    for await (const event of normalize(Readable.from([line + '\n']), { harness: 'claude-code' })) events.push(event.type);
    if (events.join() !== 'agent') throw new Error('ESM import: got ' + events);
    console.log('ESM import: ok');
  });
"
node -e "
  import('harness-events/testing').then(async ({ startModelServer, scriptFor }) => {
    const model = await startModelServer(scriptFor('Hi', [{ text: 'Hello.' }]));
    const response = await fetch(model.url + '/v1/chat/completions', { method: 'POST', body: JSON.stringify({ model: 'm', messages: [{ role: 'user', content: 'Hi' }] }) });
    const body = await response.json();
    await model.close();
    if (body.choices[0].message.content !== 'Hello.') throw new Error('harness-events/testing: got ' + JSON.stringify(body));
    console.log('harness-events/testing (the scripted model): ok');
  });
"
cat > check.ts <<'TS'
import { createNormalizer, type HarnessEvent } from 'harness-events';
const normalizer = createNormalizer({ harness: 'claude-code', cwd: '/ws' });
normalizer.on('data', (event: HarnessEvent) => {
  if (event.type === 'read') console.log(event.path, event.start_line);
});
TS
npx tsc --noEmit --strict --module nodenext --moduleResolution nodenext --types node check.ts
echo "TypeScript against the types: ok"
# --- issue 28, the run contract: awaiting a run that nothing reads settles, with its events; a failure rejects with
# HarnessRunError; the default command lines approve nothing. (A block of its own: the rest of this script is reworked
# for the package issue.)
node -e "
  import('harness-events').then(async ({ spawnHarness, HarnessRunError, argsOf, commandLines }) => {
    const lines = 'for (let n = 1; n <= 5000; n++) console.log(JSON.stringify({ n }))';
    const result = await spawnHarness({ harness: 'gg', command: process.execPath, args: ['-e', lines] }).done;
    if (result.events.length !== 5000 || result.exitCode !== 0) throw new Error('run contract: got ' + result.events.length);
    const failed = spawnHarness({ harness: 'gg', command: process.execPath, args: ['-e', 'process.exit(3)'] }).done;
    const error = await failed.catch((error) => error);
    if (!(error instanceof HarnessRunError) || error.exitCode !== 3) throw new Error('run contract: ' + error);
    if (argsOf(commandLines.codex, { prompt: 'p' }).includes('--dangerously-bypass-approvals-and-sandbox'))
      throw new Error('run contract: the default codex line approves every tool call');
    console.log('the run contract (await without reading, HarnessRunError, safe default): ok');
  });
"
# --- end of issue 28's block
node -e "if (typeof require('harness-events').createNormalizer !== 'function') process.exit(1)"
echo "require() on $(node --version): ok"
if node --no-experimental-require-module -e "require('harness-events')" 2> require.err; then
  echo "require() without require(esm) should have failed" >&2
  exit 1
fi
grep -q "harness-events is an ES module" require.err
echo "require() without require(esm): the ESM message"
echo "npx harness-events --version: $(npx --no-install harness-events --version)"
