/**
 * The Qwen Code captures the session tests read (test/fixtures/qwen/transcripts/): each scenario's session id, the
 * paths of its chat file and of its subagent's file, and what subagent-background's files give read whole.
 */
const project = '.qwen/projects/-home-user-project';
export const ids = {
  files: 'e455da37-ee80-4c34-8d07-15ae8b1c17f4',
  subagent: '656185e6-df23-47ed-a20d-f657fbc01f3b',
  'subagent-background': '9e471065-d656-4009-815a-32b6f40cec13',
  'turn-limit': 'b96ed9c3-00f2-4a97-bb5a-193f6c9556f0',
  'text-reasoning-continue': 'a32b6153-08c6-405b-b0da-56575f64b9b2',
} as const;
export type Scenario = keyof typeof ids;
export const chat = (scenario: Scenario) => `${project}/chats/${ids[scenario]}.jsonl`;
export const subagentFile = (scenario: Scenario) =>
  `${project}/subagents/${ids[scenario]}/agent-general-purpose-call_0002.jsonl`;

/** subagent-background read whole: the main file's events and the subagent's (from its own file), by time. */
export const backgroundEvents = [
  'usage',
  'orchestration | true',
  'usage',
  'agent | I started a helper; it will report back.',
  'usage',
  'agent | Reading the README.',
  'read | /home/user/project/README.md | true',
  'usage',
  'agent | README.md: a tiny demo project used for agent stream captures.',
  'orchestration | true',
  'usage',
  'agent | The helper finished: a tiny demo project used for agent stream captures.',
];
