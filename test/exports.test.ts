/**
 * Every export of every entry point in package.json, values and types, read from the declarations by the
 * TypeScript compiler: a change to the public surface is a visible diff of this file. The values are also what the
 * module really exports when imported.
 */
import { readFileSync } from 'node:fs';
import ts from 'typescript';
import { expect, test } from 'vitest';

const root = new URL('..', import.meta.url).pathname;
const { exports } = JSON.parse(readFileSync(`${root}package.json`, 'utf8')) as {
  exports: Record<string, string | { types: string }>;
};

/** The entry points with code: `./transforms` -> lib/transforms.ts (the built `types` path, from the source). */
const entries = Object.entries(exports).flatMap(([subpath, target]) =>
  typeof target === 'string' ? [] : [[subpath, target.types.replace('./dist/', '').replace(/\.d\.ts$/, '.ts')]],
);

/** `export type { X }`: a class exported so is a type only, no value at run time. */
function typeOnly(symbol: ts.Symbol): boolean {
  return (symbol.declarations ?? []).some(
    (declaration) =>
      ts.isExportSpecifier(declaration) && (declaration.isTypeOnly || declaration.parent.parent.isTypeOnly),
  );
}

function surface(): Record<string, { values: string[]; types: string[] }> {
  const program = ts.createProgram(
    entries.map(([, file]) => root + file),
    { module: ts.ModuleKind.NodeNext, moduleResolution: ts.ModuleResolutionKind.NodeNext, strict: true, noEmit: true },
  );
  const checker = program.getTypeChecker();
  return Object.fromEntries(
    entries.map(([subpath, file]) => {
      const symbol = checker.getSymbolAtLocation(program.getSourceFile(root + file)!)!;
      const values: string[] = [];
      const types: string[] = [];
      for (const exported of checker.getExportsOfModule(symbol)) {
        const target = exported.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(exported) : exported;
        (target.flags & ts.SymbolFlags.Value && !typeOnly(exported) ? values : types).push(exported.name);
      }
      return [subpath, { values: values.sort(), types: types.sort() }];
    }),
  );
}

const expected: Record<string, { values: string[]; types: string[] }> = {
  '.': {
    values: [
      'DEFAULT_MAX_BUFFER_BYTES',
      'DEFAULT_MAX_RESULT_BYTES',
      'HarnessRunError',
      'PERMISSIONS',
      'STDERR_TAIL_BYTES',
      'SchemaViolationError',
      'USAGE_ROW_VERSION',
      'UnknownHarnessError',
      'accountUsage',
      'acpAgents',
      'argsOf',
      'commandLines',
      'costOf',
      'createNormalizer',
      'createRunStream',
      'failureCodes',
      'failures',
      'findSessions',
      'followSession',
      'harnessFrom',
      'harnessNamed',
      'harnesses',
      'isHarnessName',
      'isPermissions',
      'loadPriceTable',
      'normalize',
      'permissionModes',
      'permissionScopes',
      'readEvents',
      'readSession',
      'sessionFormats',
      'shellExitCode',
      'spawnHarness',
      'usageGroups',
    ],
    types: [
      'AccountOptions',
      'AccountUsageOptions',
      'AcpAgent',
      'AcpOptions',
      'AcpPermissions',
      'AcpRunOptions',
      'AgentEvent',
      'AnswerKey',
      'AnswerRow',
      'AnswerTable',
      'ApprovalCounts',
      'Budget',
      'ClassPrices',
      'CliRunOptions',
      'CommandEvent',
      'CommandLine',
      'CommandLineInput',
      'Cost',
      'CostInput',
      'ErrorEvent',
      'EventBody',
      'EventOf',
      'EventReader',
      'EventType',
      'FindSessionsOptions',
      'FollowSessionOptions',
      'GgEvent',
      'Harness',
      'HarnessEvent',
      'HarnessName',
      'HarnessOption',
      'HarnessRun',
      'JsonlOptions',
      'ListEvent',
      'LoadPriceTableOptions',
      'NormalizeOptions',
      'Normalizer',
      'OnPermission',
      'OrchestrationEvent',
      'PermissionAnswer',
      'PermissionContext',
      'PermissionRequest',
      'PermissionScope',
      'Permissions',
      'PriceTable',
      'PricedCall',
      'ProbeOptions',
      'ReadEvent',
      'ReadEventsOptions',
      'ReadSessionOptions',
      'ReasoningEvent',
      'RunFailure',
      'RunItem',
      'RunMetrics',
      'RunOptions',
      'RunOutcome',
      'RunResult',
      'RunStream',
      'SearchEvent',
      'SessionEntry',
      'SkillEvent',
      'SpawnHarnessOptions',
      'Spent',
      'StageOptions',
      'SystemEvent',
      'SystemStage',
      'TimeSource',
      'TokenTotals',
      'Tokens',
      'TraceKind',
      'TraceOptions',
      'TraceRecord',
      'TraceRecordOf',
      'UnknownEvent',
      'UsageCall',
      'UsageCost',
      'UsageEvent',
      'UsageGroup',
      'UsageRecord',
      'UsageReport',
      'UsageRow',
      'UsageSessions',
      'UsageSource',
      'WarningEvent',
      'WriteEvent',
    ],
  },
  './harness': {
    values: [
      'BoundedMap',
      'TextSpan',
      'ToolCall',
      'addTokens',
      'amount',
      'classifyShellCommand',
      'createMetrics',
      'harnessTime',
      'isObject',
      'list',
      'namedSkill',
      'offsetLimitRange',
      'read',
      'recordRows',
      'recordTable',
      'resolvePath',
      'rule',
      'ruleNames',
      'search',
      'sharedRecords',
      'shell',
      'shellOperations',
      'silent',
      'skillEvent',
      'stringField',
      'successOf',
      'tokenCount',
      'tokensOf',
      'toolTable',
      'unwrapShellCommand',
      'write',
    ],
    types: [
      'AgentStart',
      'CallStart',
      'ClientContext',
      'Companion',
      'CompanionJoin',
      'Correlator',
      'DetectingHarness',
      'EventIds',
      'FailureRow',
      'FailureRows',
      'FileFields',
      'FileOperation',
      'Harness',
      'HarnessClient',
      'HarnessTime',
      'JsonObject',
      'LaunchOptions',
      'Limits',
      'LineRange',
      'ModelCall',
      'PermissionRecord',
      'RecordFacts',
      'RecordHandlers',
      'RecordRow',
      'RecordRows',
      'RecordRule',
      'Refusal',
      'RowSpec',
      'RunContext',
      'RunTotal',
      'RunTrace',
      'SessionEnv',
      'SessionFormat',
      'SessionLocation',
      'SessionStore',
      'ShellOperations',
      'ShellOptions',
      'Signature',
      'SpanKind',
      'StoreFacts',
      'StoreRecord',
      'TextSpanOptions',
      'ToolCallFields',
      'ToolRule',
      'ToolTable',
    ],
  },
  './transforms': {
    values: [
      'BLANK',
      'DEFAULT_MAX_LINE_BYTES',
      'DEFAULT_MAX_PENDING_BYTES',
      'DEFAULT_MAX_PENDING_TOOLS',
      'DEFAULT_MAX_SPAN_BYTES',
      'DEFAULT_STREAM_LINES_ABOVE',
      'EncodingNote',
      'InputBytes',
      'LinePart',
      'LineTooLong',
      'MetricsNote',
      'NotJson',
      'SchemaViolationError',
      'classify',
      'classifyToolCall',
      'compose',
      'correlate',
      'metricsViolationOf',
      'parseJson',
      'serialize',
      'splitLines',
      'validate',
      'violationOf',
    ],
    types: [
      'CorrelateOptions',
      'Correlated',
      'Cut',
      'Line',
      'ParseJsonOptions',
      'Parsed',
      'Sink',
      'SplitLinesOptions',
      'Stage',
      'StageDefinition',
      'StageFactory',
      'ValidateOptions',
    ],
  },
  './jetstream': {
    values: [
      'DEFAULT_PREFIX',
      'DEFAULT_STREAM',
      'JetStreamConnectError',
      'JetStreamPublishError',
      'JetStreamSink',
      'filterSubject',
      'fromJetStream',
      'publishTo',
      'streamDefaults',
      'subjectOf',
      'toJetStream',
    ],
    types: [
      'ConnectOptions',
      'JetStreamRecord',
      'JetStreamSinkOptions',
      'JetStreamSource',
      'JetStreamSourceOptions',
      'MessageKind',
      'SubjectFilter',
    ],
  },
  './otel': {
    values: [
      'OtelSink',
      'attributes',
      'contentAttributes',
      'contextFromEnv',
      'exportTrace',
      'harnessProviders',
      'modelProviders',
      'parseTraceparent',
      'toOtel',
      'traceEnv',
      'usageAttributes',
    ],
    types: ['ClockMode', 'OtelSinkOptions', 'SpanOptions'],
  },
  './otlp': {
    values: ['otlpExport', 'tracesUrl'],
    types: ['OtlpExport', 'OtlpExportOptions'],
  },
  './view': {
    values: ['Nesting', 'formatEvent', 'formatStatus', 'formatSummary', 'prettyPrint'],
    types: ['FileActivity', 'FormatOptions', 'PrettyOptions', 'RunSummary', 'Totals'],
  },
  './report': {
    values: ['buildReport', 'parseMetrics', 'reportHtml', 'reportHtmlChunks', 'reportMarkdown'],
    types: ['CommandRow', 'FileRow', 'Report', 'ReportOptions', 'ReportSummary', 'Timeline', 'TimelineItem'],
  },
  './testing': {
    values: ['DEFAULT_USAGE', 'scriptFor', 'startModelServer'],
    types: [
      'Conversation',
      'Failure',
      'HttpFailure',
      'LoggedRequest',
      'Match',
      'ModelServer',
      'ModelServerOptions',
      'ProtocolName',
      'RequestView',
      'Script',
      'ToolUse',
      'Turn',
      'Usage',
    ],
  },
};

// `harness-events/stages` is the old name of `/transforms`, kept as an alias until 1.0.
expected['./stages'] = expected['./transforms']!;

test('the package exports these names, and only these', async () => {
  const found = surface();
  expect(found).toEqual(expected);
  for (const [subpath, file] of entries) {
    const module = (await import(root + file)) as object;
    expect(Object.keys(module).sort(), subpath).toEqual(found[subpath]!.values);
  }
}, 60_000);
