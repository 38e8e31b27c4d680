/**
 * The extras' third-party packages are optional peer dependencies (package.json): the core installs without
 * them, and each extra loads its packages when it is imported or used. Importing an extra without its packages fails
 * at once (`needPeers`, the first import of its entry point) with one line naming what to install, not a stack from
 * the module loader, nor a failure at first use. (The CLI's bundle carries them, so it needs none installed.)
 */
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';

/** Each extra (a subpath export) and the packages it needs, with the versions package.json's peers allow. */
export const extras = {
  'harness-events/view': { 'log-update': '^7.2.0', picocolors: '^1.1.1', 'wrap-ansi': '^10.0.2' },
  'harness-events/report': { picocolors: '^1.1.1', 'wrap-ansi': '^10.0.2' },
  // 3.3.1: 3.4.0 needs @nats-io/nuid 3, which declares node >= 22.
  'harness-events/jetstream': { '@nats-io/transport-node': '3.3.1', '@nats-io/jetstream': '3.3.1' },
  // The lowest API the sink works with: an app's newer copy then still serves it (opentelemetry-js#4832).
  'harness-events/otel': { '@opentelemetry/api': '^1.3.0' },
  // The 2.x SDK line: 3.x needs node >= 22.15.
  'harness-events/otlp': {
    '@opentelemetry/sdk-trace-base': '~2.12.1',
    '@opentelemetry/resources': '~2.12.1',
    '@opentelemetry/exporter-trace-otlp-http': '~0.223.1',
  },
} as const satisfies Record<string, Record<string, string>>;

/**
 * Where the tests and the CLI's bundle use a narrower version than the peer range allows (devDependencies): the SDK's
 * 2.x line takes `@opentelemetry/api` below 1.10.
 */
export const testedVersions: Readonly<Record<string, string>> = { '@opentelemetry/api': '~1.9.1' };

/** An extra: its subpath export. */
export type Extra = keyof typeof extras;

/**
 * Throws the one-line error for `extra` when one of its packages is not installed where Node.js would look for it
 * from `from` (the extra's module). Synchronous, so an entry point's first import stops its loading before any module
 * that imports a package runs.
 */
export function needPeers(extra: Extra, from: string): void {
  const lookup = createRequire(from).resolve;
  const installed = (name: string) =>
    (lookup.paths(name) ?? []).some((dir) => existsSync(join(dir, name, 'package.json')));
  const missing = Object.keys(extras[extra]).filter((name) => !installed(name));
  if (missing.length === 0) return;
  const command = Object.entries(extras[extra]).map(([pkg, range]) => `'${pkg}@${range}'`);
  throw new Error(
    `${extra} needs the packages ${Object.keys(extras[extra]).join(', ')} (not installed: ${missing.join(', ')}): ` +
      `npm install ${command.join(' ')}`,
  );
}

/** The error for a missing package: the extras that need it, and the command that installs all their packages. */
export function missingPeer(name: string): Error {
  const needing = (Object.keys(extras) as Extra[]).filter((extra) => name in extras[extra]);
  const install = new Map(needing.flatMap((extra) => Object.entries(extras[extra])));
  const command = [...install].map(([pkg, range]) => `'${pkg}@${range}'`).join(' ');
  const verb = needing.length > 1 ? 'need' : 'needs';
  return new Error(`${needing.join(' and ')} ${verb} the package ${name}, not installed: npm install ${command}`);
}

/**
 * `load()` (an `import()` of `name`, written out so that bundlers see it), or the one-line error when `name` is not
 * installed. Any other failure while loading it is thrown as it is.
 */
export async function peer<T>(name: string, load: () => Promise<T>): Promise<T> {
  try {
    return await load();
  } catch (error) {
    const { code, message } = error as NodeJS.ErrnoException;
    if (code === 'ERR_MODULE_NOT_FOUND' && message.includes(`'${name}'`)) throw missingPeer(name);
    throw error;
  }
}
