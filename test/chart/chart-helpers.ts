import { execFile } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { V1Container, V1EnvVar, V1PodSpec } from '@kubernetes/client-node';
import yaml from 'js-yaml';

/** Helpers of the chart tests: helm (built by scripts/install.sh) and the objects it renders. */

export const REPO = fileURLToPath(new URL('../../', import.meta.url));
/** CHART_DIR points the tests at another copy of the chart (e.g. one with the metrics files). */
export const CHART = process.env.CHART_DIR
  ? path.resolve(process.env.CHART_DIR)
  : path.join(REPO, 'charts/framewright');
const HELM = process.env.HELM_BIN ?? path.join(REPO, '.cache/helm/bin/helm');
export const VALUE_SETS = {
  default: [] as string[],
  gpu: [path.join(CHART, 'ci/gpu-values.yaml')],
  'no-gpu': [path.join(CHART, 'ci/no-gpu-values.yaml')],
} as const;
export type ValueSet = keyof typeof VALUE_SETS;

/** The helper's files the metrics templates include (written beside the chart by the metrics work). */
export const MONITORING_FILES = ['files/grafana-dashboard.json', 'files/prometheus-rules.yaml'];
/** The values that turn the ServiceMonitor, the PrometheusRule and the dashboard ConfigMap on. */
export const MONITORING_ON = [
  '--set',
  'metrics.serviceMonitor.enabled=true',
  '--set',
  'metrics.prometheusRule.enabled=true',
  '--set',
  'metrics.grafanaDashboard.enabled=true',
];

export interface K8sObject {
  apiVersion: string;
  kind: string;
  metadata: {
    name: string;
    namespace?: string;
    labels?: Record<string, string>;
    annotations?: Record<string, string>;
  };
  [key: string]: unknown;
}

export interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs a command; resolves with its exit code and output whatever the code. */
function run(file: string, args: string[], env: NodeJS.ProcessEnv = {}): Promise<Run> {
  return new Promise((resolve, reject) => {
    execFile(file, args, { env: { ...process.env, ...env }, maxBuffer: 64 * 1024 * 1024 }, (err, stdout, stderr) => {
      if (err && typeof (err as { code?: unknown }).code !== 'number') {
        reject(new Error(`${file} could not run: ${err.message} (helm is built by scripts/install.sh)`));
        return;
      }
      resolve({ code: err ? Number((err as { code?: number }).code) : 0, stdout, stderr });
    });
  });
}

export async function helm(args: string[], env: NodeJS.ProcessEnv = {}): Promise<Run> {
  // No user config: repositories, registries and caches of this machine stay out of the tests.
  const home = path.join(REPO, '.cache/helm/home');
  return run(HELM, args, {
    HELM_CONFIG_HOME: path.join(home, 'config'),
    HELM_CACHE_HOME: path.join(home, 'cache'),
    HELM_DATA_HOME: path.join(home, 'data'),
    ...env,
  });
}

/** `helm template` of the chart with a value set and more flags; throws with helm's message on failure. */
export async function template(
  set: ValueSet,
  opts: { release?: string; namespace?: string; extra?: string[] } = {},
): Promise<{ objects: K8sObject[]; text: string }> {
  const args = [
    'template',
    opts.release ?? 'fw',
    CHART,
    '--namespace',
    opts.namespace ?? 'fw-chart',
    ...VALUE_SETS[set].flatMap((f) => ['-f', f]),
    ...(opts.extra ?? []),
  ];
  const r = await helm(args);
  if (r.code !== 0) throw new Error(`helm ${args.join(' ')} exited ${r.code}: ${r.stderr}`);
  const objects = yaml.loadAll(r.stdout).filter((o): o is K8sObject => o !== null && typeof o === 'object');
  return { objects, text: r.stdout };
}

export function find(objects: K8sObject[], kind: string, name: string): K8sObject {
  const o = objects.find((x) => x.kind === kind && x.metadata.name === name);
  if (!o) throw new Error(`no ${kind} ${name} in: ${objects.map((x) => `${x.kind}/${x.metadata.name}`).join(', ')}`);
  return o;
}

export function podSpecOf(o: K8sObject): V1PodSpec {
  return (o as unknown as { spec: { template: { spec: V1PodSpec } } }).spec.template.spec;
}

export function container(o: K8sObject, name?: string): V1Container {
  const spec = podSpecOf(o);
  const c = name ? spec.containers.find((x) => x.name === name) : spec.containers[0];
  if (!c) throw new Error(`no container ${name} in ${o.kind}/${o.metadata.name}`);
  return c;
}

/**
 * The environment a container gets, as a process would see it: plain values as they are,
 * fieldRefs and secretKeyRefs from `refs` (by field path or secret key), absent optional keys left out.
 */
export function resolveEnv(
  c: V1Container,
  refs: { fields?: Record<string, string>; secrets?: Record<string, string> } = {},
): Record<string, string> {
  const env: Record<string, string> = {};
  for (const e of c.env ?? ([] as V1EnvVar[])) {
    if (e.value !== undefined) env[e.name] = e.value;
    else if (e.valueFrom?.fieldRef) {
      const v = refs.fields?.[e.valueFrom.fieldRef.fieldPath];
      if (v === undefined) throw new Error(`${e.name}: no value for field ${e.valueFrom.fieldRef.fieldPath}`);
      env[e.name] = v;
    } else if (e.valueFrom?.secretKeyRef) {
      const v = refs.secrets?.[e.valueFrom.secretKeyRef.key];
      if (v !== undefined) env[e.name] = v;
      else if (!e.valueFrom.secretKeyRef.optional) throw new Error(`${e.name}: required secret key missing`);
    }
  }
  return env;
}

/** Every pod spec of the rendered objects (Deployments, and any other template-bearing kind). */
export function podSpecs(objects: K8sObject[]): { owner: string; spec: V1PodSpec }[] {
  return objects
    .filter((o) => ['Deployment', 'StatefulSet', 'DaemonSet', 'Job'].includes(o.kind))
    .map((o) => ({ owner: `${o.kind}/${o.metadata.name}`, spec: podSpecOf(o) }));
}

/**
 * Why `spec` does not meet the restricted Pod Security profile (what the chart promises on every
 * pod), or an empty list. The apiserver's PodSecurity admission is the real judge (cluster test).
 */
export function restrictedProblems(spec: V1PodSpec): string[] {
  const problems: string[] = [];
  const pod = spec.securityContext ?? {};
  for (const c of [...(spec.initContainers ?? []), ...spec.containers]) {
    const sc = c.securityContext ?? {};
    const where = `container ${c.name}`;
    if (!(sc.runAsNonRoot ?? pod.runAsNonRoot)) problems.push(`${where}: runAsNonRoot`);
    if ((sc.runAsUser ?? pod.runAsUser) !== 10001) problems.push(`${where}: runAsUser 10001`);
    if (sc.allowPrivilegeEscalation !== false) problems.push(`${where}: allowPrivilegeEscalation false`);
    if (!sc.capabilities?.drop?.includes('ALL')) problems.push(`${where}: capabilities drop ALL`);
    if ((sc.seccompProfile ?? pod.seccompProfile)?.type !== 'RuntimeDefault') {
      problems.push(`${where}: seccompProfile RuntimeDefault`);
    }
    if (sc.readOnlyRootFilesystem !== true) problems.push(`${where}: readOnlyRootFilesystem`);
    if (!c.resources?.requests || !c.resources?.limits) problems.push(`${where}: resources requests and limits`);
  }
  return problems;
}
