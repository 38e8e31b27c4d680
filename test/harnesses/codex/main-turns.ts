/**
 * The events of the calls the surfaces scenario MAIN_TURNS makes (test/fixtures/codex/surfaces/SCENARIOS.mjs), as the
 * rollout gives them (each in the project, the turn's cwd): one builder per call, for the tests of every capture of it.
 */
export const project = '/home/user/project';

const ran = (command: string, outcome: { exit_code?: number; is_success: boolean }) => ({
  type: 'command',
  command,
  working_directory: project,
  ...outcome,
});

/** `touch sandbox-fail.txt && rm README.md`: "Read-only file system", exit code 1. */
export const sandboxFailed = ran('touch sandbox-fail.txt && rm README.md', { exit_code: 1, is_success: false });

/** The escalated commands: refused (no exit code) or run. */
export const escalated = (name: 'declined' | 'accepted', outcome: { exit_code?: number; is_success: boolean }) =>
  ran(`touch ${name}-cmd.txt && rm notes.${name === 'declined' ? 'md' : 'txt'}`, outcome);

/** The patches adding `<name>-patch.txt`. */
export const patched = (name: 'declined' | 'accepted', is_success: boolean) => ({
  type: 'write',
  path: `${project}/${name}-patch.txt`,
  is_success,
});
