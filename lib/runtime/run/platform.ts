/**
 * Where spawnHarness runs. A run is stopped by signalling its process group (process-groups.ts: negative pids),
 * which Windows does not have: there stop() and an abort would end the agent's shell and leave the agent running,
 * so spawnHarness refuses at once. Normalizing files and streams (createNormalizer, normalize, readEvents, the
 * CLI's normalize, view and report) needs no child and works on every platform Node.js runs on.
 */

/** Why spawnHarness cannot run on `platform`, or undefined where it can. */
export function spawnUnsupported(platform: NodeJS.Platform): string | undefined {
  if (platform !== 'win32') return undefined;
  return (
    'spawnHarness is not supported on Windows: stopping a run signals its process group, which Windows does ' +
    'not have, so the agent would be left running. Run the agent yourself and pipe its output to ' +
    'normalize()/createNormalizer() (or `harness-events normalize`), which work on Windows'
  );
}
