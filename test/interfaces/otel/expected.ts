/**
 * The spans of Claude Code's subagent capture (test/fixtures/claude-code/lab/subagent.jsonl), by name: the run, its
 * subagent, the subagent's Read. Every time is the library's (`observed`); the run span's kind is the caller's.
 */
const SESSION = '6e9e50e3-d25c-4d68-991d-31274700c3f7';

export const claudeSubagent = (kind: string) => [
  {
    name: 'execute_tool Read',
    kind: 'INTERNAL',
    parent: 'invoke_agent claude-code',
    start: 'observed',
    end: 'observed',
    attributes: {
      'gen_ai.operation.name': 'execute_tool',
      'gen_ai.tool.name': 'Read',
      'gen_ai.tool.call.id': 'toolu_01SubRead00001',
      'gen_ai.conversation.id': SESSION,
      'harness_events.event_types': ['read'],
      'harness_events.timing': 'end_only',
    },
  },
  {
    name: 'invoke_agent claude-code',
    kind,
    start: 'observed',
    end: 'observed',
    attributes: {
      'gen_ai.operation.name': 'invoke_agent',
      'gen_ai.agent.name': 'claude-code',
      'gen_ai.conversation.id': SESSION,
      'gen_ai.provider.name': 'anthropic',
      'harness_events.timing': 'observed',
    },
  },
  {
    name: 'invoke_agent general-purpose',
    kind: 'INTERNAL',
    parent: 'invoke_agent claude-code',
    start: 'observed',
    end: 'observed',
    attributes: {
      'gen_ai.operation.name': 'invoke_agent',
      'gen_ai.agent.id': 'toolu_01Agent0000001',
      'gen_ai.agent.name': 'general-purpose',
      'gen_ai.conversation.id': SESSION,
      'gen_ai.provider.name': 'anthropic',
      'harness_events.timing': 'observed',
    },
  },
];
