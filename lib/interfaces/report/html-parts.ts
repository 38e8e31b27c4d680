/** What the report's HTML pieces share: escaping, and the timelines' geometry. */
import { showInvisible } from '../view/invisible.js';

/** A timeline lane's height. */
export const LANE = 26;
/** The lane labels' width. */
export const LABELS = 110;
/** The timelines' width (their viewBox; the page scales them). */
export const WIDTH = 1000;
/** The width of the time axis. */
export const PLOT = WIDTH - LABELS - 20;

const escapes: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** Text from the run as inert HTML: escaped, its invisible characters shown. */
export function escape(text: string): string {
  return showInvisible(text).replace(/[&<>"']/g, (char) => escapes[char]!);
}
