import { execFile } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { parseAllDocuments } from 'yaml';

const run = promisify(execFile);

export const HELM_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const CHART_DIR = path.join(HELM_DIR, 'billing');
export const PRODUCTION_VALUES = path.join(CHART_DIR, 'values-production.yaml');
const RENDERER_SOURCE = path.join(HELM_DIR, 'renderer');

/** Debian's packages the renderer is built from; .ci/run installs them. */
const GO_PACKAGES = 'golang-go golang-github-masterminds-sprig-dev golang-gopkg-yaml.v3-dev';

/**
 * Builds renderer/main.go (Helm's template engine: text/template + sprig + include, tpl, toYaml,
 * required) with Debian's Go and its packaged libraries, offline. Returns the binary's path.
 */
export async function buildRenderer(): Promise<string> {
  const output = path.join(mkdtempSync(path.join(tmpdir(), 'billing-helm-render-')), 'render');
  try {
    await run('go', ['build', '-o', output, '.'], {
      cwd: RENDERER_SOURCE,
      env: {
        ...process.env,
        GOPATH: '/usr/share/gocode',
        GO111MODULE: 'off',
        GOFLAGS: '',
        GOCACHE: process.env.GOCACHE ?? path.join(tmpdir(), 'billing-helm-go-cache'),
      },
    });
  } catch (error) {
    const { stderr, message } = error as { stderr?: string; message: string };
    throw new Error(`cannot build the chart renderer (apt-get install ${GO_PACKAGES}): ${stderr || message}`);
  }
  return output;
}

export interface RenderOptions {
  /** Files merged over values.yaml, in order (helm's -f). */
  valueFiles?: string[];
  name?: string;
  namespace?: string;
  upgrade?: boolean;
  chart?: string;
}

/** One Kubernetes object as rendered, with the template it came from. */
export interface Manifest {
  source: string;
  object: KubernetesObject;
}

export interface KubernetesObject {
  apiVersion: string;
  kind: string;
  metadata: { name: string; labels?: Record<string, string>; annotations?: Record<string, string> };
  [key: string]: unknown;
}

function arguments_(options: RenderOptions): string[] {
  const args = ['--chart', options.chart ?? CHART_DIR];
  for (const file of options.valueFiles ?? []) args.push('-f', file);
  args.push('--name', options.name ?? 'billing', '--namespace', options.namespace ?? 'billing');
  if (options.upgrade) args.push('--upgrade');
  return args;
}

/** Runs the renderer; resolves with its exit code, stdout and stderr (a failure is an answer too). */
export async function runRenderer(
  renderer: string,
  args: string[],
): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run(renderer, args, { maxBuffer: 64 * 1024 * 1024 });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const { code, stdout, stderr } = error as { code?: number; stdout?: string; stderr?: string };
    return { code: typeof code === 'number' ? code : -1, stdout: stdout ?? '', stderr: stderr ?? '' };
  }
}

async function renderText(renderer: string, args: string[]): Promise<string> {
  const result = await runRenderer(renderer, args);
  if (result.code !== 0) throw new Error(`render ${args.join(' ')} failed (${result.code}): ${result.stderr}`);
  return result.stdout;
}

/** The chart's manifests, parsed (empty documents, e.g. a range's leading `---`, dropped). */
export async function renderManifests(renderer: string, options: RenderOptions = {}): Promise<Manifest[]> {
  const text = await renderText(renderer, arguments_(options));
  const manifests: Manifest[] = [];
  let source = '';
  for (const document of parseAllDocuments(text)) {
    if (document.errors.length > 0) throw new Error(`rendered YAML does not parse: ${document.errors[0]?.message}`);
    const comment = document.commentBefore ?? '';
    const named = /Source: (\S+)/.exec(comment);
    if (named) source = named[1]!;
    const object = document.toJS();
    if (object === null || object === undefined) continue;
    manifests.push({ source, object: object as KubernetesObject });
  }
  return manifests;
}

export function renderNotes(renderer: string, options: RenderOptions = {}): Promise<string> {
  return renderText(renderer, [...arguments_(options), '--notes']);
}

/** .Values as the templates see them: values.yaml with the files merged over it. */
export async function mergedValues(renderer: string, options: RenderOptions = {}): Promise<unknown> {
  return JSON.parse(await renderText(renderer, [...arguments_(options), '--values-json']));
}
