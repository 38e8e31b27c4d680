/**
 * Characters that change how text reads without showing themselves: bidi controls (an RLO makes "evil" display as
 * "live") and zero-width ones. The view and both reports show each as its code point, `⟨U+202E⟩`. Pure.
 */
const INVISIBLE = /[\u061c\u180e\u200b-\u200f\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufeff]/g;

export function showInvisible(text: string): string {
  return text.replace(INVISIBLE, (char) => `⟨U+${char.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}⟩`);
}

/** Every kind of line break Markdown or a browser may honour: CR LF, lone CR, LF, VT, FF, NEL, LS, PS. */
export const LINE_BREAKS = /\r\n|[\n\r\v\f\u0085\u2028\u2029]/g;
