/**
 * The renderer behaves as helm's engine where the chart relies on it: values files merge deeply
 * over values.yaml (a list replaced, null deleting a key), include, tpl, toYaml, required and fail,
 * .Chart from Chart.yaml, .Release, .Capabilities, .Template; an empty template is no document.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';
import { buildRenderer, runRenderer } from './support/renderer.js';

let renderer: string;
let chart: string;

const FILES: Record<string, string> = {
  'Chart.yaml': 'apiVersion: v2\nname: demo\nversion: 1.2.3\nappVersion: "4.5"\n',
  'values.yaml': [
    'greeting: hello',
    'nested: { a: 1, b: { c: 2 } }',
    'list: [1, 2]',
    'gone: here',
    'template: "{{ .Values.greeting }} from tpl"',
    'strict: false',
    'boom: false',
    '',
  ].join('\n'),
  'templates/_helpers.tpl': '{{- define "demo.name" -}}{{ .Chart.Name }}-{{ .Release.Name }}{{- end -}}\n',
  'templates/configmap.yaml': `apiVersion: v1
kind: ConfigMap
metadata:
  name: {{ include "demo.name" . }}
  namespace: {{ .Release.Namespace }}
data:
  tpl: {{ tpl .Values.template . | quote }}
  nested: {{ .Values.nested | toJson | quote }}
  list: |
    {{- toYaml .Values.list | nindent 4 }}
  gone: {{ .Values.gone | default "deleted" | quote }}
  missing: "{{ .Values.nothing }}"
  upgrade: {{ .Release.IsUpgrade | quote }}
  appVersion: {{ .Chart.AppVersion | quote }}
  hasAutoscalingV2: {{ .Capabilities.APIVersions.Has "autoscaling/v2" | quote }}
  hasMonitoring: {{ .Capabilities.APIVersions.Has "monitoring.coreos.com/v1" | quote }}
  template: {{ .Template.Name | quote }}
`,
  'templates/required.yaml':
    '{{- if .Values.strict }}{{ required "strict: a name is needed" .Values.name }}{{ end }}\n',
  'templates/fail.yaml': '{{- if .Values.boom }}{{ fail "boom was asked for" }}{{ end }}\n',
};

beforeAll(async () => {
  renderer = await buildRenderer();
  chart = mkdtempSync(path.join(tmpdir(), 'billing-helm-demo-'));
  mkdirSync(path.join(chart, 'templates'));
  for (const [name, text] of Object.entries(FILES)) writeFileSync(path.join(chart, name), text);
});

function override(name: string, text: string): string {
  const file = path.join(chart, name);
  writeFileSync(file, text);
  return file;
}

describe('the chart renderer', () => {
  it('merges values files, runs helm functions, and prints each non-empty template as a document', async () => {
    const result = await runRenderer(renderer, [
      '--chart',
      chart,
      '-f',
      override('override.yaml', 'nested: { b: { d: 3 } }\nlist: [9]\ngone: null\n'),
      '--name',
      'rel',
      '--namespace',
      'ns',
      '--upgrade',
      '--api-versions',
      'monitoring.coreos.com/v1',
    ]);
    expect(result).toMatchObject({ code: 0, stderr: '' });
    expect(result.stdout.startsWith('---\n# Source: demo/templates/configmap.yaml\n')).toBe(true);
    const documents = parseAllDocuments(result.stdout).map((document) => document.toJS());
    expect(documents).toEqual([
      {
        apiVersion: 'v1',
        kind: 'ConfigMap',
        metadata: { name: 'demo-rel', namespace: 'ns' },
        data: {
          tpl: 'hello from tpl',
          nested: '{"a":1,"b":{"c":2,"d":3}}',
          list: '- 9\n',
          gone: 'deleted',
          missing: '',
          upgrade: 'true',
          appVersion: '4.5',
          hasAutoscalingV2: 'true',
          hasMonitoring: 'true',
          template: 'demo/templates/configmap.yaml',
        },
      },
    ]);
  });

  it('an install without extra API versions: IsUpgrade false, the Prometheus Operator API absent', async () => {
    const result = await runRenderer(renderer, ['--chart', chart]);
    const [configMap] = parseAllDocuments(result.stdout).map((document) => document.toJS());
    expect(configMap.data).toMatchObject({
      upgrade: 'false',
      hasMonitoring: 'false',
      list: '- 1\n- 2\n',
      gone: 'here',
    });
    expect(configMap.metadata).toEqual({ name: 'demo-release-name', namespace: 'default' });
  });

  it('required and fail stop the render with their message and exit status 1', async () => {
    const strict = await runRenderer(renderer, ['--chart', chart, '-f', override('strict.yaml', 'strict: true\n')]);
    expect(strict.code).toBe(1);
    expect(strict.stderr).toContain('strict: a name is needed');
    expect(strict.stdout).toBe('');
    const boom = await runRenderer(renderer, ['--chart', chart, '-f', override('boom.yaml', 'boom: true\n')]);
    expect(boom.code).toBe(1);
    expect(boom.stderr).toContain('boom was asked for');
  });

  it('has no env function (helm removes it: a chart must not read the machine it is rendered on)', async () => {
    const withEnv = mkdtempSync(path.join(tmpdir(), 'billing-helm-env-'));
    mkdirSync(path.join(withEnv, 'templates'));
    writeFileSync(path.join(withEnv, 'Chart.yaml'), 'apiVersion: v2\nname: env\nversion: 0.1.0\n');
    writeFileSync(path.join(withEnv, 'templates', 'home.yaml'), 'home: {{ env "HOME" }}\n');
    const result = await runRenderer(renderer, ['--chart', withEnv]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('function "env" not defined');
  });

  it('--values-json prints the merged values', async () => {
    const result = await runRenderer(renderer, [
      '--chart',
      chart,
      '-f',
      override('json.yaml', 'nested: { a: 5 }\n'),
      '--values-json',
    ]);
    expect(JSON.parse(result.stdout)).toEqual({
      greeting: 'hello',
      nested: { a: 5, b: { c: 2 } },
      list: [1, 2],
      gone: 'here',
      template: '{{ .Values.greeting }} from tpl',
      strict: false,
      boom: false,
    });
  });
});
