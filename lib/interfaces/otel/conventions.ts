/**
 * The OpenTelemetry GenAI conventions this sink follows, as data: every attribute it sets (one table), the providers
 * by harness and by model, and the token mapping. Pinned to open-telemetry/semantic-conventions-genai at commit
 * 002c8a6ea1c8a42b14a4527db83b3cabcded610a (docs/gen-ai/gen-ai-agent-spans.md, gen-ai-spans.md,
 * docs/registry/attributes/gen-ai.md), whose status is Development: names may change, so they live here only.
 */
import type { Tokens } from '../../kernel/events.js';

/** Every attribute the sink sets, by what it says. Ours are prefixed `harness_events.`. */
export const attributes = {
  /** `invoke_agent`, `execute_tool` or `chat` (Required on every span). */
  operation: 'gen_ai.operation.name',
  /** The model's provider (Required): `anthropic`, `openai`, ..., or the harness's name when unknown. */
  provider: 'gen_ai.provider.name',
  /** The harness's session id (the events' `session_id`). */
  conversation: 'gen_ai.conversation.id',
  /** The run's harness, or the subagent's name. */
  agentName: 'gen_ai.agent.name',
  /** The subagent's id: the harness's own (`native_id`), else its orchestration `subagent_id`. */
  agentId: 'gen_ai.agent.id',
  /** The model, as the harness names it. */
  model: 'gen_ai.request.model',
  /** The harness's id for the model response (Claude Code's `message.id`). */
  responseId: 'gen_ai.response.id',
  toolName: 'gen_ai.tool.name',
  toolCallId: 'gen_ai.tool.call.id',
  /** The failure class: the run's `failure`, else `_OTHER` (the conventions' fallback). */
  errorType: 'error.type',
  /** `observed`: a time is the library's clock, not the harness's; `end_only`: the start is unknown. */
  timing: 'harness_events.timing',
  /** `unresolved`: the call's (or agent's) end was never reported. */
  outcome: 'harness_events.outcome',
  /** The background subagent's launch did not wait for it. */
  background: 'harness_events.background',
  /** Cost in USD where the harness reports one (no gen_ai attribute says cost). */
  cost: 'harness_events.cost_usd',
  /** The event types a tool call became (`["read"]`). */
  eventTypes: 'harness_events.event_types',
  exitCode: 'harness_events.exit_code',
  skillName: 'harness_events.skill_name',
} as const;

/**
 * Content: only with `captureContent` (or OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT=true), as the conventions
 * ask. A tool event's field, and the attribute it goes to.
 */
export const contentAttributes = {
  command: 'harness_events.command',
  path: 'harness_events.path',
  query: 'harness_events.query',
  working_directory: 'harness_events.working_directory',
} as const;

/** `gen_ai.usage.*` from the library's token classes (disjoint: input and output exclude cache and reasoning). */
export const usageAttributes: readonly [attribute: string, classes: readonly (keyof Tokens)[]][] = [
  // "SHOULD include all types of input tokens, including cached tokens" (registry note 28).
  ['gen_ai.usage.input_tokens', ['input', 'cache_read', 'cache_write']],
  // Reasoning "SHOULD be included in gen_ai.usage.output_tokens" (note 29).
  ['gen_ai.usage.output_tokens', ['output', 'reasoning']],
  ['gen_ai.usage.cache_read.input_tokens', ['cache_read']],
  ['gen_ai.usage.cache_creation.input_tokens', ['cache_write']],
  ['gen_ai.usage.reasoning.output_tokens', ['reasoning']],
];

/** The usage attributes of some tokens: an attribute only where one of its classes is reported. */
export function usageOf(tokens: Tokens): Record<string, number> {
  const out: Record<string, number> = {};
  for (const [attribute, classes] of usageAttributes) {
    const present = classes.filter((name) => tokens[name] !== undefined);
    if (present.length > 0) out[attribute] = present.reduce((sum, name) => sum + tokens[name]!, 0);
  }
  return out;
}

/** The harnesses that reach one provider only: their well-known `gen_ai.provider.name`. */
export const harnessProviders: Readonly<Record<string, string>> = {
  'claude-code': 'anthropic',
  codex: 'openai',
  gemini: 'gcp.gemini',
};

/**
 * The others reach many providers: the model's name says which, by these rules (rule id, pattern, provider; the
 * first match wins). A model none matches gets the harness's name, a custom value the conventions allow.
 */
export const modelProviders: readonly [id: string, pattern: RegExp, provider: string][] = [
  ['anthropic', /^(anthropic\/)?claude/i, 'anthropic'],
  ['openai', /^(openai\/)?(gpt|o\d|codex)/i, 'openai'],
  ['gemini', /^(google\/)?gemini/i, 'gcp.gemini'],
  ['deepseek', /^(deepseek\/)?deepseek/i, 'deepseek'],
  ['xai', /^(x-?ai\/)?grok/i, 'x_ai'],
  ['mistral', /^(mistral(ai)?\/)?(mistral|codestral|devstral|magistral)/i, 'mistral_ai'],
  ['moonshot', /^(moonshot(ai)?\/)?kimi/i, 'moonshot_ai'],
];

/** `gen_ai.provider.name` for a harness and (where it reaches many) the model it used. */
export function providerOf(harness: string, model: string | undefined): string {
  const fixed = harnessProviders[harness];
  if (fixed !== undefined) return fixed;
  const rule = model === undefined ? undefined : modelProviders.find(([, pattern]) => pattern.test(model));
  return rule?.[2] ?? harness;
}

/** OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT, the conventions' opt-in for content. */
export function contentFromEnv(env: NodeJS.ProcessEnv = process.env): boolean {
  return env.OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT?.toLowerCase() === 'true';
}
