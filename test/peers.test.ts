/** The extras' packages: optional peers in package.json, and a missing one is one line saying what to install. */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { extras, missingPeer, needPeers, peer, testedVersions, type Extra } from '../lib/interfaces/peers.js';
import { pricesPackage } from '../lib/runtime/usage/prices.js';

const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));

test("package.json's optional peers are the extras' packages and the price table's, at the versions named", () => {
  const table = Object.assign({}, ...Object.values(extras), { [pricesPackage.name]: pricesPackage.range });
  expect(pkg.peerDependencies).toEqual(table);
  for (const name of Object.keys(table)) {
    expect(pkg.peerDependenciesMeta[name], name).toEqual({ optional: true });
    // The tests and the CLI's bundle use the same version users are told to install.
    expect(pkg.devDependencies[name], name).toBe(testedVersions[name] ?? table[name]);
    expect(pkg.dependencies[name], name).toBeUndefined();
  }
});

test('a package that is not installed: the extras that need it and the command that installs all theirs', () => {
  expect(missingPeer('wrap-ansi').message).toBe(
    'harness-events/view and harness-events/report need the package wrap-ansi, not installed: ' +
      "npm install 'log-update@^7.2.0' 'picocolors@^1.1.1' 'wrap-ansi@^10.0.2'",
  );
  expect(missingPeer('@nats-io/jetstream').message).toBe(
    'harness-events/jetstream needs the package @nats-io/jetstream, not installed: ' +
      "npm install '@nats-io/transport-node@3.3.1' '@nats-io/jetstream@3.3.1'",
  );
});

test("peer() turns the module loader's error for a missing package into that line", async () => {
  const missing = 'harness-events-no-such-package';
  await expect(peer(missing, () => import(missing))).rejects.toThrow(`the package ${missing}, not installed`);
});

test('any other failure to load it is thrown as it is', async () => {
  const broken = new SyntaxError('Unexpected token');
  await expect(peer('log-update', () => Promise.reject(broken))).rejects.toBe(broken);
});

describe(
  'importing an extra without its packages fails at once, naming ' + 'exactly its packages (README "Install")',
  () => {
    // A module where Node.js finds none of them: a folder outside this package, with no node_modules above it.
    let dir: string;
    beforeAll(() => {
      dir = mkdtempSync(join(tmpdir(), 'harness-events-peers-'));
    });
    afterAll(() => rmSync(dir, { recursive: true, force: true }));
    const from = () => pathToFileURL(join(dir, 'user.js')).href;

    test.each([
      [
        'harness-events/view',
        'needs the packages log-update, picocolors, wrap-ansi (not installed: log-update, picocolors, wrap-ansi): ' +
          "npm install 'log-update@^7.2.0' 'picocolors@^1.1.1' 'wrap-ansi@^10.0.2'",
      ],
      [
        'harness-events/report',
        'needs the packages picocolors, wrap-ansi (not installed: picocolors, wrap-ansi): npm install ' +
          "'picocolors@^1.1.1' 'wrap-ansi@^10.0.2'",
      ],
      [
        'harness-events/jetstream',
        'needs the packages @nats-io/transport-node, @nats-io/jetstream (not installed: @nats-io/transport-node, ' +
          "@nats-io/jetstream): npm install '@nats-io/transport-node@3.3.1' '@nats-io/jetstream@3.3.1'",
      ],
    ] as const)('%s', (extra, message) => {
      expect(() => needPeers(extra, from())).toThrow(new Error(`${extra} ${message}`));
    });

    test('one missing among installed ones is named alone; all installed (here, as devDependencies) passes', () => {
      mkdirSync(join(dir, 'node_modules', 'picocolors'), { recursive: true });
      writeFileSync(join(dir, 'node_modules', 'picocolors', 'package.json'), '{}');
      expect(() => needPeers('harness-events/report', from())).toThrow('(not installed: wrap-ansi)');
      for (const extra of Object.keys(extras) as Extra[]) needPeers(extra, import.meta.url);
    });

    test("each extra's entry point checks first, before any of its modules loads a package", () => {
      for (const extra of Object.keys(extras)) {
        const folder = extra.replace('harness-events/', '');
        const entry = readFileSync(new URL(`../lib/interfaces/${folder}/index.ts`, import.meta.url), 'utf8');
        expect(entry.match(/^(import|export) .*$/m)?.[0], extra).toBe("import './check-peers.js';");
        const check = readFileSync(new URL(`../lib/interfaces/${folder}/check-peers.ts`, import.meta.url), 'utf8');
        expect(check).toContain(`needPeers('${extra}', import.meta.url);`);
      }
    });
  },
);
