import type { OutputFormatName } from '../lib/output-formats.ts';
/** Row shapes of the tables in migrations/, as the client returns them (camelCase). */
export type Plan = 'trial' | 'starter' | 'pro' | 'studio';
export const PLANS: readonly Plan[] = ['trial', 'starter', 'pro', 'studio'];
export type KeyMode = 'live' | 'test';
export type RenderStatus = 'queued' | 'preparing' | 'rendering' | 'done' | 'failed';
export const RENDER_STATUSES: readonly RenderStatus[] = ['queued', 'preparing', 'rendering', 'done', 'failed'];

export interface AccountRow {
  id: string;
  name: string;
  plan: Plan;
  creditBalance: number;
  createdAt: Date;
  updatedAt: Date;
}

export interface ApiKeyRow {
  id: string;
  accountId: string;
  mode: KeyMode;
  keyHash: string;
  prefix: string;
  createdAt: Date;
  revokedAt: Date | null;
  replacedBy: string | null;
  /** Written at most once a minute per key and process (api/auth/last-used.ts). */
  lastUsedAt: Date | null;
}

export interface RenderRow {
  id: string;
  accountId: string;
  mode: KeyMode;
  keyId: string;
  status: RenderStatus;
  progress: number;
  draft: boolean;
  watermark: boolean;
  movie: unknown;
  /**
   * The output format, decided once when the render was created (movieOutputFormat of its movie)
   * and read from here ever after (store/migrations/0212_render_output_format.sql).
   */
  outputFormat: OutputFormatName;
  width: number;
  height: number;
  fps: number;
  estimatedSec: number;
  reservedCredits: number;
  chargedCredits: number | null;
  /** Where the finished MP4 lives in object storage; the API derives the signed outputUrl from it. */
  outputKey: string | null;
  expiresAt: Date | null;
  error: unknown;
  durationSec: number | null;
  meteredMinutes: number | null;
  templateId: string | null;
  webhookUrl: string | null;
  createdAt: Date;
  updatedAt: Date;
}

export interface TemplateRow {
  id: string;
  accountId: string;
  mode: KeyMode;
  name: string;
  body: unknown;
  variables: Record<string, unknown>;
  createdAt: Date;
  updatedAt: Date;
}

export interface IdempotencyRow {
  accountId: string;
  key: string;
  requestHash: string;
  resourceType: string;
  resourceId: string;
  createdAt: Date;
}

/** Who may see an item: the account and the key's mode. Every read of an item takes one. */
export interface Owner {
  accountId: string;
  mode: KeyMode;
}
