/**
 * Goose's tool table: docs/harnesses/goose.md "Tool mapping", one row per base tool name. Goose (and MCP
 * servers) call tools `<extension>__<tool>`, newer builds bare `<tool>`; `gooseToolKey` strips
 * the extension, so both eras share a row. A tool not listed here becomes `unknown`.
 * Argument names: goose-mcp's tool schemas.
 */
import type { ToolRule } from '../../kernel/harness.js';
import { resolvePath } from '../../kernel/paths.js';
import {
  list,
  namedSkill,
  read,
  rule,
  search,
  shell,
  silent,
  skillEvent,
  stringField,
  successOf,
  toolTable,
  write,
} from '../../kernel/tool-rules.js';

/** The one key every tool of the todo extension maps to (it cannot collide: base names have no `__`). */
const TODO_EXTENSION = 'todo__*';

/** The table key of a Goose tool name: the base name after the last `__`, as Goose splits it. */
export function gooseToolKey(name: string): string {
  if (name.startsWith('todo__')) return TODO_EXTENSION;
  const split = name.lastIndexOf('__');
  return split < 0 ? name : name.slice(split + 2);
}

/** A URL is reported as given: it names no file under the working directory. */
const URL_SOURCE = /^[a-z][a-z0-9+.-]*:\/\//i;

/** `read_image`: its `source` is a local path or a URL. */
const readImage = rule('read, `path` = `source` (a URL as given)', (call) => {
  const source = stringField(call.input, 'source');
  if (source === undefined) return null;
  return [
    {
      type: 'read',
      path: URL_SOURCE.test(source) ? source : resolvePath(source, call.cwd, call.home),
      is_success: successOf(call),
    },
  ];
});

const view = read({ path: 'path', viewRange: 'view_range' });

const writePath = write('path');

/** `text_editor` by its `command`; one not listed (e.g. `undo_edit`) does not fit the row. */
const textEditorCommands = new Map<string, ToolRule>([
  ['view', view],
  ['read', view],
  ...['write', 'create', 'overwrite', 'edit', 'str_replace', 'insert', 'move', 'rename', 'delete'].map(
    (command): [string, ToolRule] => [command, writePath],
  ),
]);

const textEditor = rule(
  'by its `command`: view/read -> read (lines from `view_range`); ' +
    'write/create/overwrite/edit/str_replace/insert/move/rename/delete -> write; anything else unknown',
  (call) => {
    const command = stringField(call.input, 'command');
    const row = command === undefined ? undefined : textEditorCommands.get(command);
    return row ? row(call) : null;
  },
);

const skillByName = namedSkill('name');

/**
 * `load_skill` / `skill` name the skill in `name`. A path in the input is the skill's file;
 * `name: "skill/relative-path"` loads one of that skill's supporting files (the Goose source),
 * which lives in the skill's folder; a bare name is docs/contract.md's `skills/<name>/SKILL.md`.
 */
const loadSkill = rule(
  'skill, `skill_name` = `name`; `path` from the input, else `skills/<name>` (`skills/<name>/SKILL.md` for a bare ' +
    'name)',
  (call) => {
    const name = stringField(call.input, 'name');
    if (name === undefined) return null;
    const path = stringField(call.input, 'path');
    if (path !== undefined) return [skillEvent(call, name, path)];
    const slash = name.indexOf('/');
    return slash > 0 ? [skillEvent(call, name.slice(0, slash), `skills/${name}`)] : skillByName(call);
  },
);

export const gooseTools = toolTable({
  read: read({ path: 'path', offset: 'line', limit: 'limit' }),
  read_image: readImage,
  write: writePath,
  edit: writePath,
  text_editor: textEditor,
  shell: shell('command'),
  // Goose's own developer tools have no grep/glob: these rows follow the common `pattern` + `path` shape.
  grep: search({ query: 'pattern', path: 'path' }),
  glob: search({ query: 'pattern', path: 'path' }),
  list: list('path'),
  tree: list('path'),
  load_skill: loadSkill,
  skill: loadSkill,
  // Goose <= 1.23 named it `skills__loadSkill`.
  loadSkill,
  // The todo extension is internal session state.
  [TODO_EXTENSION]: silent,
});
