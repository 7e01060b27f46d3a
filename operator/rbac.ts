import type { V1PolicyRule, V1Role } from '@kubernetes/client-node';
import { GROUP, PLURAL } from '../lib/kube/render-resource.ts';

/**
 * The least privilege of each Framewright identity in its namespace, as Role rules: the Helm
 * chart renders these, and the cluster tests bind exactly these to prove that nothing more is
 * needed (and that a call outside them is refused).
 */
export const ROLE_RULES = {
  /**
   * The API creates Renders after gating, lists them to find queued renders without one, and
   * deletes the Render of a render cancelled through it (its Jobs go with it). Never a Job itself.
   */
  api: [{ apiGroups: [GROUP], resources: [PLURAL], verbs: ['create', 'get', 'list', 'delete'] }],
  /** The operator reconciles Renders into Jobs, writes status and events, and elects a leader. */
  operator: [
    { apiGroups: [GROUP], resources: [PLURAL], verbs: ['get', 'list', 'watch', 'delete'] },
    { apiGroups: [GROUP], resources: [`${PLURAL}/status`], verbs: ['get', 'patch', 'update'] },
    { apiGroups: ['batch'], resources: ['jobs'], verbs: ['get', 'list', 'watch', 'create', 'patch', 'delete'] },
    // A failed Job's pods, read once, to say why they ended (OOMKilled): read-only, never watched.
    { apiGroups: [''], resources: ['pods'], verbs: ['list'] },
    { apiGroups: [''], resources: ['events'], verbs: ['create', 'patch'] },
    { apiGroups: ['coordination.k8s.io'], resources: ['leases'], verbs: ['get', 'create', 'update'] },
  ],
  /** A worker pod reads its Render and reports on its status; no database, no other resource. */
  worker: [
    { apiGroups: [GROUP], resources: [PLURAL], verbs: ['get'] },
    { apiGroups: [GROUP], resources: [`${PLURAL}/status`], verbs: ['patch'] },
  ],
} as const satisfies Record<string, V1PolicyRule[]>;

export type Identity = keyof typeof ROLE_RULES;

/** The Role of `identity` in `namespace`, named framewright-<identity>. */
function role(identity: Identity, namespace: string): V1Role {
  return {
    apiVersion: 'rbac.authorization.k8s.io/v1',
    kind: 'Role',
    metadata: { name: `framewright-${identity}`, namespace },
    rules: ROLE_RULES[identity].map((r) => ({
      ...r,
      apiGroups: [...r.apiGroups],
      resources: [...r.resources],
      verbs: [...r.verbs],
    })),
  };
}

/**
 * An identity as installed: its ServiceAccount, its Role and the RoleBinding between them, all
 * named framewright-<identity>. Ready for `kubectl apply` (as a List's items).
 */
export function identityObjects(identity: Identity, namespace: string): object[] {
  const name = `framewright-${identity}`;
  return [
    { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name, namespace } },
    role(identity, namespace),
    {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'RoleBinding',
      metadata: { name, namespace },
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name },
      subjects: [{ kind: 'ServiceAccount', name, namespace }],
    },
  ];
}
