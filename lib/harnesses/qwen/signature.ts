/**
 * How `harness: 'auto'` tells Qwen Code's stream from Claude Code's, whose dialect it writes: its
 * `system` `init` names its version (or its permission mode). Detection tries it before Claude Code's.
 */
import type { Signature } from '../../kernel/harness.js';

export const signature: Signature = {
  shape: '`system` `init` with `qwen_code_version` (or `permission_mode`)',
  matches: (record) =>
    record.type === 'system' &&
    record.subtype === 'init' &&
    ('qwen_code_version' in record || 'permission_mode' in record),
};
