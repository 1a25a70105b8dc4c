import type { IServiceMonitor } from '@kubernetes-models/prometheus-operator/monitoring.coreos.com/v1/ServiceMonitor';
import type { IDeployment } from 'kubernetes-models/apps/v1/Deployment';
import type { IHorizontalPodAutoscaler } from 'kubernetes-models/autoscaling/v2/HorizontalPodAutoscaler';
import type { IJob } from 'kubernetes-models/batch/v1/Job';
import type { IPodDisruptionBudget } from 'kubernetes-models/policy/v1/PodDisruptionBudget';
import type { IConfigMap } from 'kubernetes-models/v1/ConfigMap';
import type { IContainer } from 'kubernetes-models/v1/Container';
import type { IEnvVar } from 'kubernetes-models/v1/EnvVar';
import type { IService } from 'kubernetes-models/v1/Service';
import type { IServiceAccount } from 'kubernetes-models/v1/ServiceAccount';
import type { Manifest } from './renderer.js';

interface Kinds {
  ConfigMap: IConfigMap;
  Deployment: IDeployment;
  HorizontalPodAutoscaler: IHorizontalPodAutoscaler;
  Job: IJob;
  PodDisruptionBudget: IPodDisruptionBudget;
  Service: IService;
  ServiceAccount: IServiceAccount;
  ServiceMonitor: IServiceMonitor;
}

/** The rendered objects of one kind, typed (they passed their schema's validation first). */
export function ofKind<K extends keyof Kinds>(manifests: Manifest[], kind: K): Kinds[K][] {
  return manifests.filter((m) => m.object.kind === kind).map((m) => m.object as unknown as Kinds[K]);
}

/** The one object of a kind with that name; throws when there is none or several. */
export function named<K extends keyof Kinds>(manifests: Manifest[], kind: K, name: string): Kinds[K] {
  const found = ofKind(manifests, kind).filter((object) => object.metadata?.name === name);
  if (found.length !== 1) throw new Error(`${found.length} ${kind} named ${name}`);
  return found[0]!;
}

export function onlyContainer(deployment: IDeployment | IJob): IContainer {
  const containers = deployment.spec?.template.spec?.containers ?? [];
  if (containers.length !== 1) throw new Error(`${deployment.metadata?.name}: ${containers.length} containers`);
  return containers[0]!;
}

/** A container's env as name → value, or → `secret:<name>/<key>` for a Secret reference. */
export function environment(container: IContainer): Record<string, string> {
  const env: Record<string, string> = {};
  for (const variable of container.env ?? []) {
    if (variable.name in env) throw new Error(`${container.name}: ${variable.name} set twice`);
    env[variable.name] = describe(variable);
  }
  return env;
}

function describe(variable: IEnvVar): string {
  const secret = variable.valueFrom?.secretKeyRef;
  if (secret) return `secret:${secret.name}/${secret.key}`;
  if (variable.valueFrom) return `valueFrom:${JSON.stringify(variable.valueFrom)}`;
  return variable.value ?? '';
}
