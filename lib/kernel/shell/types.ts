/** What a shell command does to files, when it is recognizably a file operation. */
export type FileOperation =
  | {
      /** A file read (`cat`, `head`, `sed -n`, ...). */
      type: 'read';
      /** The file, as the command wrote it. */
      path: string;
      /** The first line read (1-based), when the command names one. */
      start_line?: number;
      /** The last line read (inclusive), when the command names one. */
      end_line?: number;
    }
  | {
      /** A search (`grep`, `rg`, `find -name`, ...). */
      type: 'search';
      /** The pattern searched for. */
      query: string;
      /** Where it searched, when the command names it. */
      path?: string;
    }
  | {
      /** A directory listing (`ls`, `tree`, ...). */
      type: 'list';
      /** The directory, when the command names one. */
      path?: string;
    };

/** One command's summary: a file operation with its paths as written, or not one. */
export type Summary = FileOperation | { type: 'unknown' };

/** 1-based, inclusive; a read from a line to the end has no `end_line`. */
export type LineRange = {
  /** The first line. */
  start_line?: number;
  /** The last line. */
  end_line?: number;
};
