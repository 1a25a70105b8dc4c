/**
 * The chart rendered as helm would (the Go renderer built from renderer/main.go) with its default
 * values and with values-production.yaml: every object passes its Kubernetes schema, and what the
 * platform needs from each is there (probes, resources, its own schema, non-root read-only pods,
 * the migration hook, autoscalers and disruption budgets, the ServiceMonitor only when asked).
 */
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { IDeployment } from 'kubernetes-models/apps/v1/Deployment';
import { beforeAll, describe, expect, it } from 'vitest';
import { validateObject } from './support/kubernetes-schemas.js';
import { environment, named, ofKind, onlyContainer } from './support/manifests.js';
import {
  buildRenderer,
  HELM_DIR,
  type Manifest,
  PRODUCTION_VALUES,
  renderManifests,
  renderNotes,
} from './support/renderer.js';

/** The gRPC services, their ports and schemas, as the services themselves default them. */
const GRPC_SERVICES = {
  accounts: 50051,
  subscriptions: 50052,
  invoicing: 50053,
  analytics: 50054,
  payments: 50055,
} as const;
const PROCESSES = [...Object.keys(GRPC_SERVICES), 'gateway'];
/** Those given GATEWAY_CREDENTIALS_KEY: payments opens the sealed credentials, accounts' admin command seals them. */
const WITH_CREDENTIALS_KEY = ['accounts', 'payments'];

let renderer: string;
let scratch: string;

beforeAll(async () => {
  renderer = await buildRenderer();
  scratch = mkdtempSync(path.join(tmpdir(), 'billing-helm-values-'));
});

function valuesFile(name: string, text: string): string {
  const file = path.join(scratch, name);
  writeFileSync(file, text);
  return file;
}

function podLabels(deployment: IDeployment): Record<string, string> {
  return deployment.spec?.template.metadata?.labels ?? {};
}

function expectEverySchemaPasses(manifests: Manifest[]) {
  expect(manifests.length).toBeGreaterThan(0);
  for (const { object } of manifests) expect(() => validateObject(object)).not.toThrow();
}

describe('with the default values', () => {
  let manifests: Manifest[];
  beforeAll(async () => {
    manifests = await renderManifests(renderer, { name: 'billing', namespace: 'payments-prod' });
  });

  it('renders objects that each pass their Kubernetes schema', () => {
    expectEverySchemaPasses(manifests);
    const counts: Record<string, number> = {};
    for (const { object } of manifests) counts[object.kind] = (counts[object.kind] ?? 0) + 1;
    expect(counts).toEqual({
      ConfigMap: 1,
      Deployment: 6,
      Service: 6,
      // One per process and the migration Job's own.
      ServiceAccount: 7,
      Job: 1,
      PodDisruptionBudget: 6,
    });
  });

  it('a Deployment, Service and ServiceAccount per process, the Service selecting its pods', () => {
    for (const name of PROCESSES) {
      const deployment = named(manifests, 'Deployment', `billing-${name}`);
      const service = named(manifests, 'Service', `billing-${name}`);
      const account = named(manifests, 'ServiceAccount', `billing-${name}`);
      expect(deployment.spec?.replicas).toBe(2);
      expect(deployment.spec?.template.spec?.serviceAccountName).toBe(account.metadata?.name);
      expect(account.automountServiceAccountToken).toBe(false);
      expect(podLabels(deployment)).toMatchObject(service.spec?.selector ?? { missing: 'selector' });
      expect(podLabels(deployment)).toMatchObject(deployment.spec?.selector.matchLabels ?? { missing: 'selector' });
      // Every port the Service sends to is a named port of the container.
      const containerPorts = (onlyContainer(deployment).ports ?? []).map((port) => port.name);
      for (const port of service.spec?.ports ?? []) expect(containerPorts).toContain(port.targetPort);
      // The other processes' selectors do not catch these pods.
      for (const other of PROCESSES.filter((n) => n !== name)) {
        expect(podLabels(deployment)).not.toMatchObject(
          named(manifests, 'Service', `billing-${other}`).spec?.selector ?? {},
        );
      }
    }
  });

  it('each gRPC service: its command, its own schema and port, gRPC health probes, no migration at start', () => {
    for (const [name, port] of Object.entries(GRPC_SERVICES)) {
      const container = onlyContainer(named(manifests, 'Deployment', `billing-${name}`));
      expect(container.image).toBe('billing-platform:0.1.0');
      expect(container.args).toEqual([name]);
      expect(container.ports).toEqual([
        { name: 'grpc', containerPort: port, protocol: 'TCP' },
        { name: 'metrics', containerPort: 9464, protocol: 'TCP' },
      ]);
      expect(environment(container)).toEqual({
        DB_SCHEMA: name,
        GRPC_PORT: String(port),
        MIGRATE_ON_START: 'false',
        DATABASE_URL: 'secret:billing-database/DATABASE_URL',
        NATS_URL: 'secret:billing-nats/NATS_URL',
        ...(WITH_CREDENTIALS_KEY.includes(name)
          ? { GATEWAY_CREDENTIALS_KEY: 'secret:billing-gateway-credentials/GATEWAY_CREDENTIALS_KEY' }
          : {}),
      });
      expect(container.envFrom).toEqual([{ configMapRef: { name: 'billing-config' } }]);
      for (const probe of [container.startupProbe, container.readinessProbe, container.livenessProbe]) {
        // Kubernetes' own gRPC probe: grpc.health.v1 Check of the whole server.
        expect(probe?.grpc).toEqual({ port });
        expect(probe?.httpGet).toBeUndefined();
      }
      expect(container.livenessProbe?.failureThreshold).toBeGreaterThan(
        container.readinessProbe?.failureThreshold ?? 0,
      );
    }
  });

  it('the gateway: its command and port, HTTP probes on /healthz and /readyz, no NATS', () => {
    const container = onlyContainer(named(manifests, 'Deployment', 'billing-gateway'));
    expect(container.args).toEqual(['gateway']);
    expect(container.ports?.[0]).toEqual({ name: 'http', containerPort: 8000, protocol: 'TCP' });
    expect(environment(container)).toEqual({
      DB_SCHEMA: 'gateway',
      PORT: '8000',
      DATABASE_URL: 'secret:billing-database/DATABASE_URL',
    });
    expect(container.readinessProbe?.httpGet).toEqual({ path: '/readyz', port: 'http' });
    expect(container.livenessProbe?.httpGet).toEqual({ path: '/healthz', port: 'http' });
    expect(container.startupProbe?.httpGet).toEqual({ path: '/healthz', port: 'http' });
  });

  it('every process: resources, non-root, no privilege escalation, a read-only root with /tmp writable', () => {
    for (const name of PROCESSES) {
      const deployment = named(manifests, 'Deployment', `billing-${name}`);
      const pod = deployment.spec?.template.spec;
      const container = onlyContainer(deployment);
      expect(container.resources).toEqual({ requests: { cpu: '100m', memory: '256Mi' }, limits: { memory: '512Mi' } });
      expect(pod?.securityContext).toMatchObject({ runAsNonRoot: true, runAsUser: 1000 });
      expect(container.securityContext).toEqual({
        runAsNonRoot: true,
        allowPrivilegeEscalation: false,
        readOnlyRootFilesystem: true,
        capabilities: { drop: ['ALL'] },
      });
      expect(container.volumeMounts).toEqual([{ name: 'tmp', mountPath: '/tmp' }]);
      expect(pod?.volumes).toEqual([{ name: 'tmp', emptyDir: { sizeLimit: '256Mi' } }]);
    }
  });

  it('the ConfigMap: each service reachable at its Service and port; mail written under the writable /tmp', () => {
    const config = named(manifests, 'ConfigMap', 'billing-config').data ?? {};
    for (const [name, port] of Object.entries(GRPC_SERVICES)) {
      expect(config[`${name.toUpperCase()}_ADDRESS`]).toBe(`billing-${name}:${port}`);
      const service = named(manifests, 'Service', `billing-${name}`);
      expect(service.spec?.ports?.find((p) => p.name === 'grpc')?.port).toBe(port);
    }
    expect(config).toMatchObject({
      LOG_LEVEL: 'info',
      WEBHOOKS_FORBID_PRIVATE_ENDPOINTS: 'true',
      MAIL_OUTBOX_DIR: '/tmp/mail-outbox',
      PUBLIC_API_URL: 'http://billing-gateway.payments-prod.svc:8000',
      METRICS_PORT: '9464',
    });
    // A changed ConfigMap rolls every Deployment: their pods carry its checksum.
    const checksums = PROCESSES.map(
      (name) =>
        named(manifests, 'Deployment', `billing-${name}`).spec?.template.metadata?.annotations?.['checksum/config'],
    );
    expect(new Set(checksums).size).toBe(1);
    expect(checksums[0]).toMatch(/^[0-9a-f]{64}$/);
  });

  it('the migration Job: a pre-install/pre-upgrade hook migrating every service schema, from the Secret only', () => {
    const job = named(manifests, 'Job', 'billing-migrate');
    expect(job.metadata?.annotations).toEqual({
      'helm.sh/hook': 'pre-install,pre-upgrade',
      'helm.sh/hook-weight': '0',
      'helm.sh/hook-delete-policy': 'before-hook-creation,hook-succeeded',
    });
    const pod = job.spec?.template.spec;
    const container = onlyContainer(job);
    expect(container.args).toEqual([
      'migrate',
      'accounts=accounts',
      'analytics=analytics',
      'invoicing=invoicing',
      'payments=payments',
      'subscriptions=subscriptions',
    ]);
    expect(environment(container)).toEqual({ DATABASE_URL: 'secret:billing-database/DATABASE_URL', LOG_LEVEL: 'info' });
    // It runs before the release's ConfigMap exists.
    expect(container.envFrom).toBeUndefined();
    expect(pod?.restartPolicy).toBe('Never');
    expect(job.spec?.backoffLimit).toBe(2);
    expect(container.securityContext).toMatchObject({ readOnlyRootFilesystem: true, runAsNonRoot: true });
    expect(pod?.securityContext).toMatchObject({ runAsNonRoot: true });
    // Its ServiceAccount is a hook too, created before it (the release's own objects come after hooks).
    const account = named(manifests, 'ServiceAccount', pod?.serviceAccountName ?? '');
    expect(account.metadata?.annotations).toEqual({
      'helm.sh/hook': 'pre-install,pre-upgrade',
      'helm.sh/hook-weight': '-10',
      'helm.sh/hook-delete-policy': 'before-hook-creation,hook-succeeded',
    });
  });

  it('a PodDisruptionBudget per process selecting its pods; no autoscaler or ServiceMonitor unless enabled', () => {
    for (const name of PROCESSES) {
      const budget = named(manifests, 'PodDisruptionBudget', `billing-${name}`);
      expect(budget.spec?.maxUnavailable).toBe(1);
      expect(budget.spec?.minAvailable).toBeUndefined();
      expect(podLabels(named(manifests, 'Deployment', `billing-${name}`))).toMatchObject(
        budget.spec?.selector?.matchLabels ?? { missing: 'selector' },
      );
    }
    expect(ofKind(manifests, 'HorizontalPodAutoscaler')).toEqual([]);
    expect(ofKind(manifests, 'ServiceMonitor')).toEqual([]);
  });

  it('NOTES.txt says how to get a first token with the admin command, by kubectl exec or a one-off pod', async () => {
    const notes = await renderNotes(renderer, { name: 'billing', namespace: 'payments-prod' });
    expect(notes).toContain(
      'kubectl -n payments-prod exec deploy/billing-accounts -- \\\n' +
        '    node deploy/image/dist/entrypoint.js admin create-org --name "Example ApS"',
    );
    expect(notes).toContain('"args":["admin","create-org","--name","Example ApS"]');
    expect(notes).toContain('billing-database (key DATABASE_URL)');
    expect(notes).toContain('is installed as release billing in namespace payments-prod.');
    // The path it names is the image's entry point (deploy/image builds it from this source).
    expect(existsSync(path.join(HELM_DIR, '../image/src/entrypoint.ts'))).toBe(true);
    const upgraded = await renderNotes(renderer, { name: 'billing', namespace: 'payments-prod', upgrade: true });
    expect(upgraded).toContain('is upgraded as release billing');
  });
});

describe('with values-production.yaml', () => {
  let manifests: Manifest[];
  beforeAll(async () => {
    manifests = await renderManifests(renderer, {
      name: 'prod',
      namespace: 'billing',
      valueFiles: [PRODUCTION_VALUES],
    });
  });

  it('renders objects that each pass their Kubernetes or Prometheus Operator schema', () => {
    expectEverySchemaPasses(manifests);
    expect(ofKind(manifests, 'Deployment').map((d) => d.metadata?.name)).toEqual(
      PROCESSES.map((name) => `prod-billing-${name}`).sort(),
    );
  });

  it('an autoscaler per process, targeting its Deployment, which then sets no replica count', () => {
    const expected = {
      accounts: [3, 10],
      subscriptions: [2, 8],
      invoicing: [2, 8],
      analytics: [2, 6],
      payments: [2, 6],
      gateway: [3, 20],
    };
    for (const [name, [min, max]] of Object.entries(expected)) {
      const autoscaler = named(manifests, 'HorizontalPodAutoscaler', `prod-billing-${name}`);
      expect(autoscaler.spec?.scaleTargetRef).toEqual({
        apiVersion: 'apps/v1',
        kind: 'Deployment',
        name: `prod-billing-${name}`,
      });
      expect([autoscaler.spec?.minReplicas, autoscaler.spec?.maxReplicas]).toEqual([min, max]);
      expect(autoscaler.spec?.metrics?.[0]?.resource?.name).toBe('cpu');
      const deployment = named(manifests, 'Deployment', `prod-billing-${name}`);
      expect(deployment.spec?.replicas).toBeUndefined();
      // CPU utilisation is a share of the request: every container must request CPU.
      expect(onlyContainer(deployment).resources?.requests?.cpu).toBeDefined();
    }
  });

  it('disruption budgets by minAvailable (it wins over the default maxUnavailable)', () => {
    const minAvailable = { accounts: 2, subscriptions: 1, invoicing: 1, analytics: 1, payments: 1, gateway: 2 };
    for (const [name, count] of Object.entries(minAvailable)) {
      const budget = named(manifests, 'PodDisruptionBudget', `prod-billing-${name}`);
      expect([budget.spec?.minAvailable, budget.spec?.maxUnavailable]).toEqual([count, undefined]);
    }
  });

  it('a ServiceMonitor scraping /metrics on every process Service', () => {
    const [monitor, ...others] = ofKind(manifests, 'ServiceMonitor');
    expect(others).toEqual([]);
    expect(monitor?.metadata?.labels).toMatchObject({ release: 'kube-prometheus-stack' });
    expect(monitor?.spec.endpoints).toEqual([
      { port: 'metrics', path: '/metrics', interval: '15s', scrapeTimeout: '10s' },
    ]);
    expect(monitor?.spec.namespaceSelector).toEqual({ matchNames: ['billing'] });
    const selected = ofKind(manifests, 'Service').filter((service) => {
      const labels = service.metadata?.labels ?? {};
      const { matchLabels = {}, matchExpressions = [] } = monitor?.spec.selector ?? {};
      return (
        Object.entries(matchLabels).every(([key, value]) => labels[key] === value) &&
        matchExpressions.every((e) => e.operator === 'In' && (e.values ?? []).includes(labels[e.key] ?? ''))
      );
    });
    expect(selected.map((s) => s.metadata?.name).sort()).toEqual(PROCESSES.map((n) => `prod-billing-${n}`).sort());
    for (const service of selected) expect(service.spec?.ports?.map((p) => p.name)).toContain('metrics');
  });

  it('the pinned image, its pull secret, and settings and Secrets from the values', () => {
    for (const name of PROCESSES) {
      const deployment = named(manifests, 'Deployment', `prod-billing-${name}`);
      expect(onlyContainer(deployment).image).toBe('registry.example.com/billing/billing-platform:0.1.0');
      expect(deployment.spec?.template.spec?.imagePullSecrets).toEqual([{ name: 'registry-credentials' }]);
      expect(environment(onlyContainer(deployment)).DATABASE_URL).toBe('secret:billing-postgres/url');
    }
    const env = (name: string) => environment(onlyContainer(named(manifests, 'Deployment', `prod-billing-${name}`)));
    expect(env('invoicing')).toMatchObject({
      SMTP_URL: 'secret:billing-smtp/url',
      EINVOICE_ACCESS_POINT_TOKEN: 'secret:billing-einvoice/token',
      EINVOICE_ACCESS_POINT_URL: 'https://peppol-ap.example.com/documents',
    });
    expect(env('payments')).toMatchObject({
      SMTP_URL: 'secret:billing-smtp/url',
      GATEWAY_CREDENTIALS_KEY: 'secret:billing-gateway-credentials/key',
      NATS_URL: 'secret:billing-nats/url',
    });
    expect(env('subscriptions').SCHEDULER_BATCH_SIZE).toBe('500');
    expect(named(manifests, 'ConfigMap', 'prod-billing-config').data).toMatchObject({
      PUBLIC_API_URL: 'https://billing.example.com',
      MAIL_FROM: 'billing@example.com',
    });
    expect(environment(onlyContainer(named(manifests, 'Job', 'prod-billing-migrate'))).DATABASE_URL).toBe(
      'secret:billing-postgres/url',
    );
  });
});

describe('with other values', () => {
  it('migrations disabled: no hook Job, and each service migrates its schema when it starts', async () => {
    const manifests = await renderManifests(renderer, {
      valueFiles: [valuesFile('no-migration-job.yaml', 'migrations:\n  enabled: false\n')],
    });
    expectEverySchemaPasses(manifests);
    expect(ofKind(manifests, 'Job')).toEqual([]);
    expect(ofKind(manifests, 'ServiceAccount')).toHaveLength(6);
    for (const name of Object.keys(GRPC_SERVICES)) {
      expect(environment(onlyContainer(named(manifests, 'Deployment', `billing-${name}`))).MIGRATE_ON_START).toBe(
        'true',
      );
    }
  });

  it('a service with its own database Secret and schema: its Deployment and the migration Job use both', async () => {
    const manifests = await renderManifests(renderer, {
      valueFiles: [
        valuesFile(
          'own-database.yaml',
          'services:\n  payments:\n    schema: payments_eu\n    databaseUrlSecret: { name: payments-db, key: url }\n',
        ),
      ],
    });
    expectEverySchemaPasses(manifests);
    const payments = environment(onlyContainer(named(manifests, 'Deployment', 'billing-payments')));
    expect([payments.DATABASE_URL, payments.DB_SCHEMA]).toEqual(['secret:payments-db/url', 'payments_eu']);
    const migration = onlyContainer(named(manifests, 'Job', 'billing-migrate'));
    expect(migration.args).toContain('payments=payments_eu');
    expect(environment(migration)).toEqual({
      DATABASE_URL: 'secret:billing-database/DATABASE_URL',
      PAYMENTS_DATABASE_URL: 'secret:payments-db/url',
      LOG_LEVEL: 'info',
    });
  });

  it('a Secret without a name stops the render, naming the variable', async () => {
    const { runRenderer, CHART_DIR } = await import('./support/renderer.js');
    const result = await runRenderer(renderer, [
      '--chart',
      CHART_DIR,
      '-f',
      valuesFile('no-secret-name.yaml', 'secrets:\n  natsUrl: { name: "", key: NATS_URL }\n'),
    ]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('secrets: the Secret holding NATS_URL needs a name');
    expect(result.stdout).toBe('');
  });
});
