/**
 * The spans of Claude Code's subagent capture (test/fixtures/claude-code/lab/subagent.jsonl) read back, by name: the
 * run, the Agent call, the subagent under it, the subagent's Read under the subagent, a chat span per message (no
 * request marker without partial messages: zero-length, end_only), all at the capture's own times. The run span's
 * kind is the caller's.
 */
const SESSION = '6e9e50e3-d25c-4d68-991d-31274700c3f7';

export const claudeSubagent = (kind: string) => [
  {
    name: 'chat claude-opus-5-5',
    kind: 'CLIENT',
    parent: 'invoke_agent claude-code',
    start: '2026-11-30T02:06:52.267Z',
    end: '2026-11-30T02:06:52.267Z',
    attributes: {
      'gen_ai.operation.name': 'chat',
      'gen_ai.provider.name': 'anthropic',
      'gen_ai.request.model': 'claude-opus-5-5',
      'gen_ai.response.id': 'msg_fake_main_0',
      'harness_events.timing': 'end_only',
      'gen_ai.conversation.id': SESSION,
    },
  },
  {
    name: 'chat claude-opus-5-5',
    kind: 'CLIENT',
    parent: 'invoke_agent claude-code',
    start: '2026-11-30T02:06:52.523Z',
    end: '2026-11-30T02:06:52.523Z',
    attributes: {
      'gen_ai.operation.name': 'chat',
      'gen_ai.provider.name': 'anthropic',
      'gen_ai.request.model': 'claude-opus-5-5',
      'gen_ai.response.id': 'msg_fake_main_1',
      'harness_events.timing': 'end_only',
      'gen_ai.conversation.id': SESSION,
    },
  },
  {
    name: 'chat claude-opus-5-5',
    kind: 'CLIENT',
    parent: 'invoke_agent general-purpose',
    start: '2026-11-30T02:06:52.346Z',
    end: '2026-11-30T02:06:52.346Z',
    attributes: {
      'gen_ai.operation.name': 'chat',
      'gen_ai.provider.name': 'anthropic',
      'gen_ai.request.model': 'claude-opus-5-5',
      'gen_ai.response.id': 'msg_fake_sub_0',
      'harness_events.timing': 'end_only',
      'gen_ai.conversation.id': SESSION,
    },
  },
  {
    name: 'execute_tool Agent',
    kind: 'INTERNAL',
    parent: 'invoke_agent claude-code',
    start: '2026-11-30T02:06:52.267Z',
    end: '2026-11-30T02:06:52.496Z',
    attributes: {
      'gen_ai.operation.name': 'execute_tool',
      'gen_ai.tool.name': 'Agent',
      'gen_ai.tool.call.id': 'toolu_01Agent0000001',
      'gen_ai.conversation.id': SESSION,
    },
  },
  {
    name: 'execute_tool Read',
    kind: 'INTERNAL',
    parent: 'invoke_agent general-purpose',
    start: '2026-11-30T02:06:52.346Z',
    end: '2026-11-30T02:06:52.388Z',
    attributes: {
      'gen_ai.operation.name': 'execute_tool',
      'gen_ai.tool.name': 'Read',
      'gen_ai.tool.call.id': 'toolu_01SubRead00001',
      'gen_ai.conversation.id': SESSION,
      'harness_events.event_types': ['read'],
    },
  },
  {
    name: 'invoke_agent claude-code',
    kind: kind,
    start: '2026-11-30T02:06:52.267Z',
    end: '2026-11-30T02:06:52.523Z',
    attributes: {
      'gen_ai.operation.name': 'invoke_agent',
      'gen_ai.agent.name': 'claude-code',
      'gen_ai.conversation.id': SESSION,
      'gen_ai.provider.name': 'anthropic',
      'gen_ai.request.model': 'claude-opus-5-5',
      'harness_events.timing': 'observed',
    },
  },
  {
    name: 'invoke_agent general-purpose',
    kind: 'INTERNAL',
    parent: 'execute_tool Agent',
    start: '2026-11-30T02:06:52.267Z',
    end: '2026-11-30T02:06:52.491Z',
    attributes: {
      'gen_ai.operation.name': 'invoke_agent',
      'gen_ai.agent.id': 'a95e18abcd2d970dc',
      'gen_ai.agent.name': 'general-purpose',
      'harness_events.timing': 'observed',
      'gen_ai.conversation.id': SESSION,
      'gen_ai.provider.name': 'anthropic',
    },
  },
];
