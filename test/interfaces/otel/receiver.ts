/**
 * A small OTLP/HTTP receiver for the tests (no collector is installed here): a `node:http` server on 127.0.0.1, on a
 * port the system picks, that takes `POST /v1/traces` with JSON bodies, answers 200, and decodes the spans.
 */
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { RawSpan } from './spans.js';

interface AnyValue {
  stringValue?: string;
  boolValue?: boolean;
  intValue?: string | number;
  doubleValue?: number;
  arrayValue?: { values?: AnyValue[] };
}

interface KeyValue {
  key: string;
  value: AnyValue;
}

interface OtlpSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: number;
  startTimeUnixNano: string | number;
  endTimeUnixNano: string | number;
  attributes?: KeyValue[];
  links?: { traceId: string; spanId: string }[];
  status?: { code?: number };
}

interface OtlpBody {
  resourceSpans: { resource?: { attributes?: KeyValue[] }; scopeSpans: { spans: OtlpSpan[] }[] }[];
}

const KINDS = ['UNSPECIFIED', 'INTERNAL', 'SERVER', 'CLIENT', 'PRODUCER', 'CONSUMER'];

function valueOf(value: AnyValue): unknown {
  if (value.arrayValue) return (value.arrayValue.values ?? []).map(valueOf);
  if (value.intValue !== undefined) return Number(value.intValue);
  return value.stringValue ?? value.boolValue ?? value.doubleValue;
}

export function attributesOf(list: KeyValue[] | undefined): Record<string, unknown> {
  return Object.fromEntries((list ?? []).map(({ key, value }) => [key, valueOf(value)]));
}

/** Nanoseconds since the epoch (a decimal string in OTLP JSON) as milliseconds. */
const ms = (nanos: string | number) => Number(BigInt(nanos) / 1_000_000n);

export interface Receiver {
  /** The base URL: http://127.0.0.1:<port> (the exporter adds /v1/traces). */
  url: string;
  /** Each request: its path, headers and parsed body. */
  requests: { path: string; headers: IncomingHttpHeaders; body: OtlpBody }[];
  /** Every span received, decoded. */
  spans(): RawSpan[];
  /** The resource attributes of the first batch. */
  resource(): Record<string, unknown>;
  close(): Promise<void>;
}

export async function startReceiver(): Promise<Receiver> {
  const requests: Receiver['requests'] = [];
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      if (request.method !== 'POST' || request.url !== '/v1/traces') {
        response.writeHead(404).end();
        return;
      }
      requests.push({
        path: request.url,
        headers: request.headers,
        body: JSON.parse(Buffer.concat(chunks).toString('utf8')),
      });
      response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    spans: () =>
      requests.flatMap(({ body }) =>
        body.resourceSpans.flatMap((resource) =>
          resource.scopeSpans.flatMap((scope) =>
            scope.spans.map((span): RawSpan => ({
              traceId: span.traceId,
              spanId: span.spanId,
              parentSpanId: span.parentSpanId || undefined,
              name: span.name,
              kind: KINDS[span.kind]!,
              links: (span.links ?? []).map((link) => link.spanId),
              start: ms(span.startTimeUnixNano),
              end: ms(span.endTimeUnixNano),
              error: span.status?.code === 2,
              attributes: attributesOf(span.attributes),
            })),
          ),
        ),
      ),
    resource: () => attributesOf(requests[0]?.body.resourceSpans[0]?.resource?.attributes),
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}
