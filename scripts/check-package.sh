#!/usr/bin/env bash
# The package as a user gets it: in a clean clone, `npm ci && npm start` builds (prestart) and prints events, and
# `npm pack` builds (prepack) and ships the build. (No prepare script: npm 11 warns at every install of a package with
# one.) That tarball is installed into a fresh project with --engine-strict
# (any npm warning fails the check), its runtime tree counted, every entry point imported (and required), a
# TypeScript user of each compiled without skipLibCheck, and the CLI run from that install: --version, normalize,
# view, report, and --publish to a local nats-server (read back with replay). The extras are checked twice: without
# their optional peers (a one-line error; the CLI, which bundles them, still does everything) and with them installed.
# require() works where Node.js can require an ES module (20.19+, 22.12+), and elsewhere fails with a one-line
# message saying how to import it.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
work="$(mktemp -d "${TMPDIR:-/tmp}/harness-events-package-XXXXXX")"
nats_pid=
cleanup() {
  if [ -n "$nats_pid" ]; then kill "$nats_pid" 2> /dev/null || true; fi
  rm -rf "$work"
}
trap cleanup EXIT
# What `npm ls --omit=dev --all` counts in a project that installs harness-events alone: harness-events,
# signal-exit, stream-json, stream-chain (README "Install" says this figure).
runtime_packages=4

# A clean clone (the files git tracks, and new ones it does not ignore): `npm ci && npm start` prints events, as the
# README says; then `npm pack` of it, with no dist/, builds before packing, so the tarball checked below holds a
# library built from nothing but the sources.
clone="$work/clone"
mkdir "$clone"
(
  cd "$root"
  git ls-files -z --cached --others --exclude-standard | while IFS= read -r -d '' file; do
    if [ -e "$file" ]; then printf '%s\0' "$file"; fi
  done | tar --null -T - -cf -
) | tar -xf - -C "$clone"
(cd "$clone" && npm ci --no-audit --no-fund --loglevel=error > "$work/clone.log" 2>&1) || {
  cat "$work/clone.log" >&2
  exit 1
}
(cd "$clone" && npm start --silent > "$work/start.jsonl" 2> "$work/start.err") || {
  cat "$work/start.err" >&2
  echo "npm ci && npm start failed in a clean clone" >&2
  exit 1
}
node -e '
  const lines = require("node:fs").readFileSync(process.argv[1], "utf8").trim().split("\n");
  const types = lines.map((line) => JSON.parse(line).type);
  if (!types.includes("read")) throw new Error("npm start printed no read event: " + types);
  console.log(`a clean clone: npm ci && npm start prints ${lines.length} events`);
' "$work/start.jsonl"
rm -rf "$clone/dist"
pack="$(cd "$clone" && npm pack --json --pack-destination "$work" 2> "$work/pack.log")" || {
  cat "$work/pack.log" >&2
  exit 1
}
tarball="$(node -p 'JSON.parse(process.argv[1])[0].filename' "$pack")"
tar -tzf "$work/$tarball" > "$work/contents.txt"
for built in dist/lib/index.js dist/lib/index.d.ts dist/bin/cli.js; do
  grep -qx "package/$built" "$work/contents.txt" || {
    echo "npm pack of a clean clone did not ship $built (nothing built it)" >&2
    exit 1
  }
done
rm -rf "$clone"
node -e '
  const [{ filename, size, unpackedSize, entryCount }] = JSON.parse(process.argv[1]);
  const kB = (bytes) => (bytes / 1024).toFixed(1) + " kB";
  console.log(`package: ${filename}, ${kB(size)} packed, ${kB(unpackedSize)} unpacked, ${entryCount} files`);
' "$pack"
if tar -tzf "$work/$tarball" | grep -E '^package/(dist/(test|bench|live|scripts|examples)/|scripts/)'; then
  echo "the tarball holds more than the library (above)" >&2
  exit 1
fi
ts="$(node -p "require('$root/node_modules/typescript/package.json').version")"
types="$(node -p "require('$root/node_modules/@types/node/package.json').version")"
peer() { node -p "require('$root/package.json').peerDependencies['$1']"; }
cp -r "$root/test/fixtures/claude-code/lab" "$work/capture"
cd "$work"
npm init -y > /dev/null
npm pkg set type=module > /dev/null

# npm prints warnings (EBADENGINE, a missing script, ...) to stderr even at --loglevel=warn: none may appear.
install() {
  npm install --engine-strict --no-audit --no-fund --loglevel=warn "$@" > /dev/null 2> install.err || {
    cat install.err >&2
    exit 1
  }
  if [ -s install.err ]; then
    echo "npm install $* warned:" >&2
    cat install.err >&2
    exit 1
  fi
}
install "./$tarball"
echo "npm install --engine-strict on $(node --version): no warning"
found="$(npm ls --omit=dev --all --parseable | tail -n +2 | wc -l)"
if [ "$found" -ne "$runtime_packages" ]; then
  npm ls --omit=dev --all >&2
  echo "the runtime tree holds $found packages, not $runtime_packages" >&2
  exit 1
fi
echo "runtime tree (npm ls --omit=dev --all): $found packages"

node -e "
  import('harness-events').then(async ({ normalize }) => {
    const { Readable } = await import('node:stream');
    const line = JSON.stringify({ type: 'assistant', message: { id: 'm', content: [{ type: 'text', text: 'hi' }] } });
    const events = [];
    const stream = normalize(Readable.from([line + '\n']), { harness: 'claude-code' });
    for await (const event of stream) events.push(event.type);
    if (events.join() !== 'agent') throw new Error('ESM import: got ' + events);
    console.log('import harness-events: ok');
  });
"
for entry in harness stages; do
  node -e "import('harness-events/$entry').then((m) =>
    console.log('import harness-events/$entry: ok,', Object.keys(m).length, 'exports'))"
done
node -e "
  import('harness-events/testing').then(async ({ startModelServer, scriptFor }) => {
    const model = await startModelServer(scriptFor('Hi', [{ text: 'Hello.' }]));
    const request = { model: 'm', messages: [{ role: 'user', content: 'Hi' }] };
    const response = await fetch(model.url + '/v1/chat/completions', { method: 'POST', body: JSON.stringify(request) });
    const body = await response.json();
    await model.close();
    if (body.choices[0].message.content !== 'Hello.')
      throw new Error('harness-events/testing: got ' + JSON.stringify(body));
    console.log('import harness-events/testing (the scripted model): ok');
  });
"
# The extras without their peers: the import fails, in one line naming the packages that extra needs (README
# "Install"), and no other.
for entry in view report jetstream; do
  if node -e "await import('harness-events/$entry')" --input-type=module 2> extra.err; then
    echo "harness-events/$entry loaded without its optional peers" >&2
    exit 1
  fi
  line="$(grep "^Error: harness-events/$entry needs the packages .* (not installed: .*): npm install " extra.err)" || {
    cat extra.err >&2
    exit 1
  }
  packages="$(LINE="$line" node -p "Object.keys(require('$root/package.json').peerDependencies)
    .filter((name) => process.env.LINE.includes(\"'\" + name + '@')).join(' ')")"
  case "$entry" in
    view) wanted='log-update picocolors wrap-ansi' ;;
    report) wanted='picocolors wrap-ansi' ;;
    jetstream) wanted='@nats-io/jetstream @nats-io/transport-node' ;;
  esac
  if [ "$packages" != "$wanted" ]; then
    echo "harness-events/$entry without its peers asks for: $packages, not $wanted" >&2
    exit 1
  fi
  echo "import harness-events/$entry without its peers: ${line#Error: }"
done

# The CLI from the install, with no optional peer installed: its bundle carries them.
echo "npx harness-events --version: $(npx --no-install harness-events --version)"
npx --no-install harness-events normalize --harness claude-code --metrics metrics.json capture/parallel.jsonl \
  > events.jsonl
echo "harness-events normalize: $(wc -l < events.jsonl) events"
npx --no-install harness-events view --cwd /home/user/project events.jsonl > view.txt
grep -q '^◂ read README.md' view.txt
echo "harness-events view: $(wc -l < view.txt) lines"
npx --no-install harness-events report --metrics metrics.json -o report.html events.jsonl
grep -q '<html' report.html
echo "harness-events report: $(wc -c < report.html) bytes of HTML"
port="$(node -e "
  const s = require('node:net').createServer();
  s.listen(0, '127.0.0.1', () => { console.log(s.address().port); s.close(); });
")"
mkdir nats
/usr/sbin/nats-server -js -a 127.0.0.1 -p "$port" -sd "$work/nats" > nats.log 2>&1 &
nats_pid=$!
npx --no-install harness-events normalize --harness claude-code --publish "nats://127.0.0.1:$port" --run package-check \
  --quiet capture/parallel.jsonl 2> publish.err
npx --no-install harness-events replay --from "nats://127.0.0.1:$port" --run package-check > replayed.jsonl
if [ "$(wc -l < replayed.jsonl)" -ne "$(wc -l < events.jsonl)" ]; then
  echo "replay gave $(wc -l < replayed.jsonl) events, normalize $(wc -l < events.jsonl)" >&2
  exit 1
fi
echo "harness-events normalize --publish: $(wc -l < replayed.jsonl) events stored, read back by replay"
kill "$nats_pid"
wait "$nats_pid" 2> /dev/null || true
nats_pid=

# The extras with their peers, and TypeScript users of every entry point.
install "log-update@$(peer log-update)" "picocolors@$(peer picocolors)" "wrap-ansi@$(peer wrap-ansi)" \
  "@nats-io/transport-node@$(peer @nats-io/transport-node)" "@nats-io/jetstream@$(peer @nats-io/jetstream)"
install -D "typescript@$ts" "@types/node@$types"
for entry in view report jetstream; do
  node -e "import('harness-events/$entry').then((m) =>
    console.log('import harness-events/$entry with its peers: ok,', Object.keys(m).length, 'exports'))"
done
cat > check.ts << 'TS'
import { createNormalizer, spawnHarness, type HarnessEvent, type RunMetrics } from 'harness-events';
import { recordRows, toolTable, read, type Harness } from 'harness-events/harness';
import { splitLines, parseJson } from 'harness-events/stages';
import { toJetStream, type JetStreamSinkOptions } from 'harness-events/jetstream';
import { prettyPrint } from 'harness-events/view';
import { buildReport, reportHtml } from 'harness-events/report';
import { startModelServer } from 'harness-events/testing';
const normalizer = createNormalizer({ harness: 'claude-code', cwd: '/ws' });
normalizer.on('data', (event: HarnessEvent) => {
  if (event.type === 'read') console.log(event.path, event.start_line);
});
const custom: Harness = {
  name: 'acme',
  records: recordRows({}),
  tools: toolTable({ read_file: read({ path: 'path' }) }),
  correlator: () => ({ record: () => 'none', end() {} }),
};
const sink: JetStreamSinkOptions = { servers: 'nats://127.0.0.1:4222', harness: 'acme', run: 'r' };
export const used = [spawnHarness, splitLines, parseJson, toJetStream, sink, prettyPrint, buildReport, reportHtml];
export const more: [Harness, typeof startModelServer, RunMetrics | undefined] = [custom, startModelServer, undefined];
TS
npx tsc --noEmit --strict --skipLibCheck false --module nodenext --moduleResolution nodenext --types node check.ts
echo "TypeScript against every entry point's types (no skipLibCheck): ok"
# --- issue 28, the run contract: awaiting a run that nothing reads settles, with its events; a failure rejects with
# HarnessRunError; the default command lines approve nothing. (A block of its own: the rest of this script is reworked
# for the package issue.)
node -e "
  import('harness-events').then(async ({ spawnHarness, HarnessRunError, argsOf, commandLines }) => {
    const lines = 'for (let n = 1; n <= 5000; n++) console.log(JSON.stringify({ n }))';
    const result = await spawnHarness({ harness: 'gg', command: process.execPath, args: ['-e', lines] }).done;
    if (result.events.length !== 5000 || result.exitCode !== 0)
      throw new Error('run contract: got ' + result.events.length);
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
for entry in harness stages jetstream testing; do
  node -e "if (Object.keys(require('harness-events/$entry')).length === 0) process.exit(1)"
done
echo "require() of harness-events and of harness-events/{harness,stages,jetstream,testing} on $(node --version): ok"
if node --no-experimental-require-module -e "require('harness-events')" 2> require.err; then
  echo "require() without require(esm) should have failed" >&2
  exit 1
fi
grep -q "harness-events is an ES module" require.err
echo "require() without require(esm): the ESM message"
