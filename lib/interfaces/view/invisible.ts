/**
 * Characters that change how text reads without showing themselves: bidi controls (an RLO makes "evil" display as
 * "live") and zero-width ones. The view and both reports show each as its code point, `⟨U+202E⟩`; the view and the
 * CLI's listings and messages also show control characters as symbols (`readable`, `oneLine`). Pure.
 */
const INVISIBLE = /[\u061c\u180e\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff]/g;

export function showInvisible(text: string): string {
  return text.replace(INVISIBLE, (char) => `⟨U+${char.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}⟩`);
}

/** Every kind of line break Markdown or a browser may honour: CR LF, lone CR, LF, VT, FF, NEL, LS, PS. */
export const LINE_BREAKS = /\r\n|[\n\r\v\f\u0085\u2028\u2029]/g;

/**
 * Text as a terminal may safely show it: line ends as `\n`, tabs as spaces, and control
 * characters (an escape sequence in an agent's message would otherwise move the cursor or
 * recolor the screen) as their visible Control Pictures (`␛`), bidi and zero-width characters as `⟨U+202E⟩`.
 */
export function readable(text: string): string {
  return showInvisible(text)
    .replace(/\r\n|[\u2028\u2029]/g, '\n')
    .replace(/\t/g, '    ')
    .replace(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/g, (char) => {
      const code = char.charCodeAt(0);
      if (code < 0x20) return String.fromCharCode(0x2400 + code);
      return code === 0x7f ? '\u2421' : '\ufffd';
    });
}

/**
 * Text as `readable` shows it, on one line: a line break as `␤`, so a value (a path, an id, an error quoting a file)
 * cannot forge a line of a listing or of a message.
 */
export function oneLine(text: string): string {
  return readable(text).replace(/\n/g, '\u2424');
}
