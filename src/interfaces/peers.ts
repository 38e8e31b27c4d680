/**
 * The extras' third-party packages are optional peer dependencies (package.json): the core installs without
 * them, and each extra loads its packages when it is imported or used. A missing one is one line naming what to
 * install, not a stack from the module loader. (The CLI's bundle carries them, so it needs none installed.)
 */

/** Each extra (a subpath export) and the packages it needs, with the versions package.json's peers allow. */
export const extras = {
  'harness-events/view': { 'log-update': '^7.2.0', picocolors: '^1.1.1', 'wrap-ansi': '^10.0.2' },
  'harness-events/report': { picocolors: '^1.1.1', 'wrap-ansi': '^10.0.2' },
  // 3.3.1: 3.4.0 needs @nats-io/nuid 3, which declares node >= 22.
  'harness-events/jetstream': { '@nats-io/transport-node': '3.3.1', '@nats-io/jetstream': '3.3.1' },
} as const satisfies Record<string, Record<string, string>>;

export type Extra = keyof typeof extras;

/** The error for a missing package, with the command that installs all of the extra's. */
export function missingPeer(extra: Extra, name: string): Error {
  const install = Object.entries(extras[extra]).map(([pkg, range]) => `'${pkg}@${range}'`);
  return new Error(`${extra} needs the package ${name}, not installed: npm install ${install.join(' ')}`);
}

/**
 * `load()` (an `import()` of `name`, written out so that bundlers see it), or the one-line error when `name` is not
 * installed. Any other failure while loading it is thrown as it is.
 */
export async function peer<T>(extra: Extra, name: string, load: () => Promise<T>): Promise<T> {
  try {
    return await load();
  } catch (error) {
    const { code, message } = error as NodeJS.ErrnoException;
    if (code === 'ERR_MODULE_NOT_FOUND' && message.includes(`'${name}'`)) throw missingPeer(extra, name);
    throw error;
  }
}
