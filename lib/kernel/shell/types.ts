/** What a shell command does to files, when it is recognizably a file operation. */
export type FileOperation =
  | { type: 'read'; path: string; start_line?: number; end_line?: number }
  | { type: 'search'; query: string; path?: string }
  | { type: 'list'; path?: string };

/** One command's summary: a file operation with its paths as written, or not one. */
export type Summary = FileOperation | { type: 'unknown' };

/** 1-based, inclusive; a read from a line to the end has no `end_line`. */
export type LineRange = { start_line?: number; end_line?: number };
