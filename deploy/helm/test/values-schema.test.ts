/**
 * values.schema.json (what helm checks the merged values against before rendering) accepts the
 * chart's own values and values-production.yaml, and refuses values that would deploy something
 * broken or unsafe, naming where.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Ajv, type ValidateFunction } from 'ajv';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildRenderer, CHART_DIR, mergedValues, PRODUCTION_VALUES } from './support/renderer.js';

let renderer: string;
let scratch: string;
let validate: ValidateFunction;

beforeAll(async () => {
  renderer = await buildRenderer();
  scratch = mkdtempSync(path.join(tmpdir(), 'billing-helm-schema-'));
  const schema = JSON.parse(readFileSync(path.join(CHART_DIR, 'values.schema.json'), 'utf8'));
  validate = new Ajv({ allErrors: true, strict: true, allowUnionTypes: true }).compile(schema);
});

/** The errors for values.yaml with `override` merged over it (helm's -f): [path, keyword] pairs. */
async function errorsWith(override: string): Promise<string[][]> {
  const file = path.join(scratch, `override-${Math.random().toString(36).slice(2)}.yaml`);
  writeFileSync(file, override);
  validate(await mergedValues(renderer, { valueFiles: [file] }));
  return (validate.errors ?? []).map((error) => [error.instancePath, error.keyword]);
}

describe('values.schema.json', () => {
  it('accepts the default values and the production-like values', async () => {
    expect(validate(await mergedValues(renderer)), JSON.stringify(validate.errors)).toBe(true);
    expect(
      validate(await mergedValues(renderer, { valueFiles: [PRODUCTION_VALUES] })),
      JSON.stringify(validate.errors),
    ).toBe(true);
  });

  it.each([
    [
      'a port that is not a number',
      'services:\n  accounts:\n    port: "5005x"\n',
      [['/services/accounts/port', 'type']],
    ],
    [
      'a schema name PostgreSQL would need quoted',
      'services:\n  invoicing:\n    schema: Invoicing-EU\n',
      [['/services/invoicing/schema', 'pattern']],
    ],
    [
      'a service without resource requests',
      'services:\n  payments:\n    resources:\n      requests: null\n',
      [['/services/payments/resources', 'required']],
    ],
    [
      'a process the image does not have',
      'services:\n  worker:\n    protocol: grpc\n',
      [['/services', 'additionalProperties']],
    ],
    ['a service removed', 'services:\n  analytics: null\n', [['/services', 'required']]],
    [
      'the gateway probed as a gRPC service',
      'services:\n  gateway:\n    protocol: grpc\n',
      [['/services/gateway/protocol', 'const']],
    ],
    [
      'a writable root filesystem',
      'containerSecurityContext:\n  readOnlyRootFilesystem: false\n',
      [['/containerSecurityContext/readOnlyRootFilesystem', 'const']],
    ],
    ['pods as root', 'podSecurityContext:\n  runAsNonRoot: false\n', [['/podSecurityContext/runAsNonRoot', 'const']]],
    [
      'a Secret without a name',
      'secrets:\n  databaseUrl: { name: "", key: DATABASE_URL }\n',
      [['/secrets/databaseUrl/name', 'pattern']],
    ],
    [
      'a secret value put in the ConfigMap',
      'config:\n  DATABASE_URL: postgresql://u:p@db/billing\n',
      [
        ['/config', 'not'],
        ['/config', 'propertyNames'],
      ],
    ],
    [
      'an environment variable name with a dash',
      'services:\n  accounts:\n    env:\n      log-level: debug\n',
      [
        ['/services/accounts/env', 'pattern'],
        ['/services/accounts/env', 'propertyNames'],
      ],
    ],
    [
      'an autoscaler without a ceiling',
      'services:\n  gateway:\n    autoscaling:\n      maxReplicas: null\n',
      [['/services/gateway/autoscaling', 'required']],
    ],
    ['a misspelt top-level key', 'service:\n  accounts:\n    replicas: 3\n', [['', 'additionalProperties']]],
  ])('refuses %s', async (_, override, expected) => {
    expect(await errorsWith(override)).toEqual(expected);
  });
});
