/**
 * A terminal screen (capture-pane -e: text and SGR color sequences) drawn as an SVG image, for
 * the README's screen capture. Each run of text is placed at its column and stretched to its
 * cell width, so the picture keeps the terminal's grid whatever monospace font renders it.
 */
const palette = ['#3b3b3b', '#f14c4c', '#23d18b', '#e5e510', '#3b8eea', '#d670d6', '#29b8db', '#e5e5e5'];
const bright = ['#666666', '#f66', '#5f5', '#ff5', '#6af', '#f7f', '#5ff', '#fff'];
const FOREGROUND = '#d4d4d4';
const BACKGROUND = '#1e1e1e';
const CELL_WIDTH = 8.4;
const LINE_HEIGHT = 18;
const PADDING = 12;

interface Style {
  color: string | undefined;
  bold: boolean;
  dim: boolean;
}

interface Run extends Style {
  column: number;
  text: string;
}

/** The runs of one captured line: text with the style in force, at its column. */
export function styledRuns(line: string): Run[] {
  const runs: Run[] = [];
  let style: Style = { color: undefined, bold: false, dim: false };
  let column = 0;
  for (const part of line.split(/(\x1b\[[0-9;]*m)/)) {
    const sgr = /^\x1b\[([0-9;]*)m$/.exec(part);
    if (sgr) {
      style = applySgr(style, sgr[1]!);
      continue;
    }
    // Blanks are not drawn: a run starts at its first visible character.
    const text = part.trimStart();
    const start = column + [...part].length - [...text].length;
    if (text.trimEnd() !== '') runs.push({ ...style, column: start, text: text.trimEnd() });
    column += [...part].length;
  }
  return runs;
}

function applySgr(style: Style, parameters: string): Style {
  const next = { ...style };
  const codes = parameters === '' ? [0] : parameters.split(';').map(Number);
  for (let index = 0; index < codes.length; index++) {
    const code = codes[index]!;
    if (code === 0) Object.assign(next, { color: undefined, bold: false, dim: false });
    else if (code === 1) next.bold = true;
    else if (code === 2) next.dim = true;
    else if (code === 22) Object.assign(next, { bold: false, dim: false });
    else if (code >= 30 && code <= 37) next.color = palette[code - 30];
    else if (code >= 90 && code <= 97) next.color = bright[code - 90];
    else if (code === 39) next.color = undefined;
    // 256-color or RGB: not used by the view
    else if (code === 38 || code === 48) index += codes[index + 1] === 5 ? 2 : 4;
  }
  return next;
}

const xmlEscapes: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' };

/** The screen's lines, `columns` wide, as an SVG document. */
export function screenSvg(lines: string[], columns: number): string {
  const width = Math.ceil(columns * CELL_WIDTH + 2 * PADDING);
  const height = lines.length * LINE_HEIGHT + 2 * PADDING;
  const texts = lines.flatMap((line, row) =>
    styledRuns(line).map((run) => {
      const attributes = [
        `x="${(PADDING + run.column * CELL_WIDTH).toFixed(1)}"`,
        `y="${PADDING + row * LINE_HEIGHT + 13}"`,
        `textLength="${([...run.text].length * CELL_WIDTH).toFixed(1)}"`,
        'lengthAdjust="spacingAndGlyphs"',
        `fill="${run.color ?? FOREGROUND}"`,
        ...(run.bold ? ['font-weight="bold"'] : []),
        ...(run.dim ? ['fill-opacity="0.6"'] : []),
      ];
      return `<text ${attributes.join(' ')}>${run.text.replace(/[&<>"]/g, (char) => xmlEscapes[char]!)}</text>`;
    }),
  );
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" ` +
      `font-family="DejaVu Sans Mono, Menlo, Consolas, monospace" font-size="14" style="white-space: pre">`,
    `<rect width="100%" height="100%" rx="6" fill="${BACKGROUND}"/>`,
    ...texts,
    '</svg>',
    '',
  ].join('\n');
}
