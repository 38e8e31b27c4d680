/** Windows has no process groups: spawnHarness refuses there at once, starting nothing (runtime/platform.ts). */
import { expect, test } from 'vitest';
import { spawnHarness } from '../../../lib/index.js';
import { spawnUnsupported } from '../../../lib/runtime/run/platform.js';

test('spawnHarness runs on Linux and macOS, and not on Windows, saying what works there', () => {
  expect(spawnUnsupported('linux')).toBeUndefined();
  expect(spawnUnsupported('darwin')).toBeUndefined();
  expect(spawnUnsupported('win32')).toBe(
    'spawnHarness is not supported on Windows: stopping a run signals its process group, which Windows does not ' +
      'have, so the agent would be left running. Run the agent yourself and pipe its output to ' +
      'normalize()/createNormalizer() (or `harness-events normalize`), which work on Windows',
  );
});

test('on win32 spawnHarness throws that message (before its options are even read)', () => {
  // Windows cannot run here: process.platform is what spawnHarness reads, so it is set for this one call.
  const platform = Object.getOwnPropertyDescriptor(process, 'platform')!;
  Object.defineProperty(process, 'platform', { ...platform, value: 'win32' });
  try {
    // An unknown harness would throw UnknownHarnessError were the options read first.
    expect(() => spawnHarness({ harness: 'no-such-harness' as never, command: process.execPath })).toThrow(
      new Error(spawnUnsupported('win32')),
    );
  } finally {
    Object.defineProperty(process, 'platform', platform);
  }
});
