/**
 * The layers of lib/ (docs/architecture.md), checked: every import of every file under lib/,
 * types included, goes to its own layer or one below, never up; no two files load each other
 * in a circle (imports of types only are erased when compiled, so they load nothing and are left
 * out of that check: the kernel's interfaces name each other); and no two folders, at any depth,
 * import each other, types included (a folder and its subfolder count as two: `kernel` and
 * `kernel/shell`). `npm run check:layers` prints what it found; test/layers.test.ts holds it.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

/** The layers, bottom first: each may import its own folder and the ones it lists. */
export const layers = [
  { folder: 'kernel', imports: [] },
  { folder: 'sqlite', imports: [] },
  { folder: 'files', imports: [] },
  { folder: 'testing', imports: [] },
  { folder: 'transforms', imports: ['kernel'] },
  { folder: 'harnesses', imports: ['kernel', 'sqlite', 'files'] },
  { folder: 'runtime', imports: ['kernel', 'sqlite', 'files', 'transforms', 'harnesses'] },
  { folder: 'interfaces', imports: ['kernel', 'sqlite', 'files', 'transforms', 'harnesses', 'runtime'] },
] as const;

/** Entry points (the package's exports) stand on top and may import any layer. */
const entryPoints = new Set(['index.ts', 'harness.ts', 'transforms.ts']);

/** Within interfaces/, the CLI sits above the others (it starts them), and nothing imports it. */
const interfaceTop = 'interfaces/cli';

export interface LayerReport {
  files: number;
  imports: number;
  /** `from -> to` for each import that goes up or sideways where it may not. */
  violations: string[];
  /** Each circle of files, as the files in it. */
  cycles: string[][];
  /** Each circle of folders (`.` is lib/ itself), as the folders in it. */
  folderCycles: string[][];
}

/** `import ... from '...'` or `export ... from '...'`, `import('...')`, and a bare `import '...'`. */
const importPattern = new RegExp(
  [
    String.raw`(?:^|[\s;])(?:import|export)\s([^'"]*?)from\s*['"]([^'"]+)['"]`,
    String.raw`import\s*\(\s*['"]([^'"]+)['"]\s*\)`,
    String.raw`^import\s+['"]([^'"]+)['"]`,
  ].join('|'),
  'gm',
);

/** `import type {...}`, or `{ type A, type B }`: erased by the compiler, nothing is loaded. */
function typeOnly(clause: string | undefined): boolean {
  if (clause === undefined) return false;
  const text = clause.trim();
  if (/^type\s/.test(text)) return true;
  const names = /^\{([^}]*)\}$/.exec(text)?.[1];
  const specifiers = names
    ?.split(',')
    .map((name) => name.trim())
    .filter((name) => name !== '');
  return specifiers !== undefined && specifiers.length > 0 && specifiers.every((name) => name.startsWith('type '));
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

/** The layer folder of a file relative to lib/ (`kernel`, `harnesses`, ...), or the entry point itself. */
function layerOf(file: string): string {
  return file.includes('/') ? file.slice(0, file.indexOf('/')) : file;
}

function allowed(from: string, to: string): boolean {
  const fromLayer = layerOf(from);
  const toLayer = layerOf(to);
  if (entryPoints.has(fromLayer)) return true;
  if (entryPoints.has(toLayer)) return false;
  if (fromLayer === toLayer)
    return fromLayer !== 'interfaces' || !to.startsWith(interfaceTop) || from.startsWith(interfaceTop);
  const layer = layers.find((candidate) => candidate.folder === fromLayer);
  return layer !== undefined && (layer.imports as readonly string[]).includes(toLayer);
}

export function checkLayers(srcDir: string): LayerReport {
  const files = sourceFiles(srcDir).map((path) => relative(srcDir, path));
  const graph = new Map<string, string[]>();
  const edges: (readonly [string, string])[] = [];
  const violations: string[] = [];
  let imports = 0;
  for (const file of files) {
    const text = readFileSync(join(srcDir, file), 'utf8');
    const targets: string[] = [];
    for (const match of text.matchAll(importPattern)) {
      const specifier = match[2] ?? match[3] ?? match[4];
      if (!specifier.startsWith('.')) continue;
      const target = relative(srcDir, resolve(srcDir, dirname(file), specifier)).replace(/\.js$/, '.ts');
      imports++;
      edges.push([file, target]);
      if (!typeOnly(match[1])) targets.push(target);
      if (target.startsWith('..')) violations.push(`${file} -> ${target} (outside lib/)`);
      else if (!allowed(file, target)) violations.push(`${file} -> ${target}`);
    }
    graph.set(file, targets);
  }
  return { files: files.length, imports, violations, cycles: cycles(graph), folderCycles: folderCycles(files, edges) };
}

/**
 * The circles between folders, at each depth: at depth d a file stands for its folder cut to d
 * segments, so `harnesses/a` <-> `harnesses/b` is found at depth 2 whatever subfolders the imports
 * come from, and `kernel` (its own files) <-> `kernel/shell` at depth 2 too. A circle found at
 * several depths is reported once.
 */
function folderCycles(files: readonly string[], edges: readonly (readonly [string, string])[]): string[][] {
  const folders = (file: string): string[] => (dirname(file) === '.' ? [] : dirname(file).split('/'));
  const deepest = Math.max(0, ...files.map((file) => folders(file).length));
  const found = new Map<string, string[]>();
  for (let depth = 1; depth <= deepest; depth++) {
    const folderOf = (file: string): string => folders(file).slice(0, depth).join('/') || '.';
    const graph = new Map<string, string[]>(files.map((file) => [folderOf(file), []]));
    for (const [from, to] of edges) {
      const [source, target] = [folderOf(from), folderOf(to)];
      if (source !== target && graph.has(target)) graph.get(source)!.push(target);
    }
    for (const cycle of cycles(graph)) found.set(cycle.join(' '), cycle);
  }
  return [...found.values()].sort((a, b) => a.join(' ').localeCompare(b.join(' ')));
}

/** Tarjan's strongly connected components of more than one file (or a file importing itself). */
function cycles(graph: Map<string, string[]>): string[][] {
  let index = 0;
  const indices = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  function visit(node: string): void {
    indices.set(node, index);
    low.set(node, index++);
    stack.push(node);
    onStack.add(node);
    for (const next of graph.get(node) ?? []) {
      if (!graph.has(next)) continue;
      if (!indices.has(next)) {
        visit(next);
        low.set(node, Math.min(low.get(node)!, low.get(next)!));
      } else if (onStack.has(next)) low.set(node, Math.min(low.get(node)!, indices.get(next)!));
    }
    if (low.get(node) !== indices.get(node)) return;
    const component: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      component.push(member);
    } while (member !== node);
    if (component.length > 1 || (graph.get(node) ?? []).includes(node)) found.push(component.sort());
  }
  for (const node of graph.keys()) if (!indices.has(node)) visit(node);
  return found;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const report = checkLayers(new URL('../lib/', import.meta.url).pathname);
  for (const violation of report.violations) console.log(`upward import: ${violation}`);
  for (const cycle of report.cycles) console.log(`import cycle: ${cycle.join(' <-> ')}`);
  for (const cycle of report.folderCycles) console.log(`folder cycle: ${cycle.join(' <-> ')}`);
  const ok = report.violations.length === 0 && report.cycles.length === 0 && report.folderCycles.length === 0;
  const found =
    `${report.violations.length} upward imports, ${report.cycles.length} cycles, ` +
    `${report.folderCycles.length} folder cycles`;
  console.log(
    `layers: ${report.files} files, ${report.imports} imports; ` +
      (ok ? 'no file imports a layer above its own, no import cycle between files or folders' : found),
  );
  process.exitCode = ok ? 0 : 1;
}
