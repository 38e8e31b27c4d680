/**
 * The shell classifier's tables of cases: each command, as a string or an argv array, and the file operations it is
 * (null: it stays a command).
 */
import { describe, expect, it } from 'vitest';
import { classifyShellCommand, type FileOperation } from '../../../lib/kernel/shell/index.js';

type Case = [command: string | readonly string[], expected: FileOperation[] | null];

/** Each case classified without a working directory unless `cwd` is given. */
export function cases(title: string, list: Case[], cwd?: string) {
  describe(title, () => {
    for (const [command, expected] of list) {
      it(`${JSON.stringify(command)} -> ${JSON.stringify(expected)}`, () => {
        expect(classifyShellCommand(command, cwd)).toStrictEqual(expected);
      });
    }
  });
}

/** The operations a case expects. */
export const read = (path: string, start_line?: number, end_line?: number): FileOperation => ({
  type: 'read',
  path,
  ...(start_line === undefined ? {} : { start_line }),
  ...(end_line === undefined ? {} : { end_line }),
});
export const list = (path?: string): FileOperation => (path === undefined ? { type: 'list' } : { type: 'list', path });
export const search = (query: string, path?: string): FileOperation =>
  path === undefined ? { type: 'search', query } : { type: 'search', query, path };
