/** The extras' packages: optional peers in package.json, and a missing one is one line saying what to install. */
import { readFileSync } from 'node:fs';
import { expect, test } from 'vitest';
import { extras, missingPeer, peer } from '../lib/interfaces/peers.js';

const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));

test("package.json's optional peers are the extras' packages, at the versions the table names", () => {
  const table = Object.assign({}, ...Object.values(extras));
  expect(pkg.peerDependencies).toEqual(table);
  for (const name of Object.keys(table)) {
    expect(pkg.peerDependenciesMeta[name], name).toEqual({ optional: true });
    // The tests and the CLI's bundle use the same version users are told to install.
    expect(pkg.devDependencies[name], name).toBe(table[name]);
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
