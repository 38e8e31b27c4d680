/**
 * A live run's place: a temporary folder holding the run's HOME and its workspace, laid out
 * like the lab's (README.md, notes.txt, package.json, src/a.ts, src/b.ts, committed in a git
 * repo), removed afterwards. Agents in auto-approve mode do what the scripted model says, so
 * every scenario names paths inside this workspace only.
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

export const workspaceFiles: Readonly<Record<string, string>> = {
  'README.md': '# Demo project\n\nhello world\nThis workspace is a live-test fixture.\n',
  'notes.txt': ['alpha', 'beta', 'gamma', 'delta hello', 'epsilon', 'zeta', 'eta', 'theta']
    .map((word, i) => `line ${i + 1}: ${word}\n`)
    .join(''),
  'package.json': '{ "name": "demo", "version": "1.0.0", "private": true }\n',
  'src/a.ts': 'export function greet(name: string): string {\n  return `hello ${name}`;\n}\n',
  'src/b.ts': "import { greet } from './a.js';\n\nconsole.log(greet('world'));\n",
};

export interface Place {
  /** The run's HOME. */
  readonly home: string;
  /** The agent's working directory. */
  readonly workspace: string;
  /** The run's TMPDIR: what the CLI leaves in its temporary folder goes with the place. */
  readonly tmp: string;
  /** An absolute path inside the workspace. */
  path(relative: string): string;
  /** Writes a file (folders created), relative to the workspace, or absolute. */
  write(path: string, text: string): void;
  remove(): void;
}

export function createPlace(files: Readonly<Record<string, string>> = {}): Place {
  // realpath: the agents report resolved paths (macOS's /tmp is a link).
  const root = realpathSync(mkdtempSync(join(tmpdir(), 'he-live-')));
  const home = join(root, 'home');
  const workspace = join(root, 'project');
  const tmp = join(root, 'tmp');
  for (const dir of [home, workspace, tmp]) mkdirSync(dir);
  const place: Place = {
    home,
    workspace,
    tmp,
    path: (relative) => join(workspace, relative),
    write(path, text) {
      const target = path.startsWith('/') ? path : join(workspace, path);
      mkdirSync(dirname(target), { recursive: true });
      writeFileSync(target, text);
    },
    remove: () => rmSync(root, { recursive: true, force: true }),
  };
  for (const [path, text] of Object.entries({ ...workspaceFiles, ...files })) place.write(path, text);
  const git = (...args: string[]) =>
    execFileSync(
      'git',
      ['-c', 'user.name=live', '-c', 'user.email=live@localhost', '-c', 'init.defaultBranch=main', ...args],
      { cwd: workspace, env: { PATH: process.env.PATH, HOME: home }, stdio: 'ignore' },
    );
  git('init', '-q');
  git('add', '-A');
  git('commit', '-qm', 'the live-test workspace');
  return place;
}

/** Every file under a folder (the git repo's own folder aside) by its path, with the SHA-256 of its content. */
export function hashTree(root: string): Map<string, string> {
  const hashes = new Map<string, string>();
  const walk = (dir: string, prefix: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = prefix + entry.name;
      if (entry.isDirectory()) {
        if (path !== '.git') walk(join(dir, entry.name), `${path}/`);
      } else
        hashes.set(
          path,
          createHash('sha256')
            .update(readFileSync(join(dir, entry.name)))
            .digest('hex'),
        );
    }
  };
  walk(root, '');
  return hashes;
}

/** The files added, changed or removed between two hashTree snapshots, sorted. */
export function changedFiles(before: Map<string, string>, after: Map<string, string>): string[] {
  const changed = new Set<string>();
  for (const [path, hash] of after) if (before.get(path) !== hash) changed.add(path);
  for (const path of before.keys()) if (!after.has(path)) changed.add(path);
  return [...changed].sort();
}
