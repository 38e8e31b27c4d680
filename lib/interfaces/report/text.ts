import type { HarnessEvent } from '../../kernel/events.js';
import { peer } from '../peers.js';
import { formatEvent } from '../view/format.js';

const { default: picocolors } = await peer('picocolors', () => import('picocolors'));

const plain = picocolors.createColors(false);

/** An event as the live view shows it, without color or wrapping: the report's text for it. */
export function eventText(event: HarnessEvent, cwd: string | undefined): string {
  return formatEvent(event, { colors: plain, cwd }).join('\n');
}
