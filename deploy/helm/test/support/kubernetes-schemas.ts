import { ServiceMonitor } from '@kubernetes-models/prometheus-operator/monitoring.coreos.com/v1';
import { Deployment } from 'kubernetes-models/apps/v1';
import { HorizontalPodAutoscaler } from 'kubernetes-models/autoscaling/v2';
import { Job } from 'kubernetes-models/batch/v1';
import { PodDisruptionBudget } from 'kubernetes-models/policy/v1';
import { ConfigMap, Service, ServiceAccount } from 'kubernetes-models/v1';
import type { KubernetesObject } from './renderer.js';

interface Validatable {
  validate(): void;
}

/** The kinds the chart may render, with the model validating each against its Kubernetes schema. */
const MODELS: Record<string, new (data: never) => Validatable> = {
  'v1/ConfigMap': ConfigMap,
  'v1/Service': Service,
  'v1/ServiceAccount': ServiceAccount,
  'apps/v1/Deployment': Deployment,
  'batch/v1/Job': Job,
  'autoscaling/v2/HorizontalPodAutoscaler': HorizontalPodAutoscaler,
  'policy/v1/PodDisruptionBudget': PodDisruptionBudget,
  'monitoring.coreos.com/v1/ServiceMonitor': ServiceMonitor,
};

/**
 * Validates one object against the Kubernetes (or Prometheus Operator) OpenAPI schema of its
 * apiVersion and kind; throws naming the object and the violations. A kind outside the list is an
 * error too: nothing reaches the cluster unchecked.
 */
export function validateObject(object: KubernetesObject): void {
  const key = `${object.apiVersion}/${object.kind}`;
  const Model = MODELS[key];
  if (!Model) throw new Error(`${key} ${object.metadata?.name}: no schema for this kind`);
  try {
    new Model(object as never).validate();
  } catch (error) {
    throw new Error(`${key} ${object.metadata?.name}: ${(error as Error).message}`);
  }
}
