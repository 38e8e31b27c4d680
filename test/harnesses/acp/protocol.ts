/**
 * The official ACP schema (the JSON Schema @agentclientprotocol/sdk publishes, v1) as a check of
 * every message the library's client writes: what the real agents' SDKs would accept.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { Ajv2020 } from 'ajv/dist/2020.js';
import type { ValidateFunction } from 'ajv';

const schemaPath = createRequire(import.meta.url).resolve('@agentclientprotocol/sdk/schema/v1/schema.json');
const { $defs } = JSON.parse(readFileSync(schemaPath, 'utf8'));
const ajv = new Ajv2020({ strict: false, validateFormats: false });
const validators = new Map<string, ValidateFunction>();

/** The validator of one definition, compiled on first use (the whole schema takes seconds). */
function validatorOf(definition: string): ValidateFunction {
  let validate = validators.get(definition);
  if (validate === undefined)
    validators.set(definition, (validate = ajv.compile({ $defs, $ref: `#/$defs/${definition}` })));
  return validate;
}

/**
 * The schema definition of each method's params; `session/set_model` is unstable and not in v1, so its shape is checked
 * here.
 */
const paramsOf: Record<string, string | ((params: unknown) => boolean)> = {
  initialize: 'InitializeRequest',
  'session/new': 'NewSessionRequest',
  'session/prompt': 'PromptRequest',
  'session/cancel': 'CancelNotification',
  'session/set_model': (params) => {
    const keys = Object.keys(params as object).sort();
    return (
      keys.join() === 'modelId,sessionId' && Object.values(params as object).every((value) => typeof value === 'string')
    );
  },
};

/** The schema errors of one message the client sent, as text; '' when it is valid ACP. */
export function protocolErrors(message: Record<string, unknown>): string {
  if (message.jsonrpc !== '2.0') return 'not JSON-RPC 2.0';
  const check = (definition: string, value: unknown) => {
    const validate = validatorOf(definition);
    return validate(value) ? '' : `${definition}: ${ajv.errorsText(validate.errors)}`;
  };
  if (typeof message.method === 'string') {
    const params = paramsOf[message.method];
    if (params === undefined) return `a method the client never sends: ${message.method}`;
    if (typeof params === 'function') return params(message.params) ? '' : `bad params for ${message.method}`;
    return check(params, message.params);
  }
  // An answer to the agent: a permission's outcome, or an error.
  return 'result' in message ? check('RequestPermissionResponse', message.result) : check('Error', message.error);
}
