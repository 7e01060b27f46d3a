/**
 * The Render custom resource: the one typed definition shared by the API (creates it), the
 * operator (reconciles it into a Job, mirrors its status) and the worker pod (reads its spec,
 * patches its status). The CRD in crds/ is generated from these schemas (lib/kube/crd.ts), so
 * every `description` here is also `kubectl explain` text.
 */
import { createHash } from 'node:crypto';
import { FormatRegistry, type Static, Type } from '@sinclair/typebox';
import type { RenderRow } from '../../store/types.ts';
import { isId } from '../ids.ts';
import { OUTPUT_FORMATS } from '../output-formats.ts';
import { movieKey, outputKey } from '../storage/keys.ts';

export const GROUP = 'framewright.dev';
export const VERSION = 'v1alpha1';
export const API_VERSION = `${GROUP}/${VERSION}`;
export const KIND = 'Render';
export const LIST_KIND = 'RenderList';
export const PLURAL = 'renders';
export const SINGULAR = 'render';
export const SHORT_NAMES: readonly string[] = ['rnd', 'rnds'];
/** `kubectl get framewright` lists every resource of this category. */
export const CATEGORY = 'framewright';

/** Labels on every Render (and, by the operator, on its Job and pod). */
export const LABELS = {
  account: `${GROUP}/account`,
  template: `${GROUP}/template`,
  renderId: `${GROUP}/render-id`,
  managedBy: 'app.kubernetes.io/managed-by',
} as const;
const MANAGED_BY = 'framewright';

/** Attempts per render when the creator does not say: as the embedded executor, one retry of a crash. */
export const DEFAULT_MAX_ATTEMPTS = 2;

// Crockford base32 in lower case, as lib/ids.ts writes it.
const ID_CHARS = '[0-9a-hjkmnp-tv-z]{26}';
// Every string carries a maxLength: CEL's cost estimate of `self == oldSelf` needs bounded strings.
const ID_LENGTH = 30;
// The object-store key rule of lib/storage/object-store.ts (assertObjectKey), minus its `..` check.
const OBJECT_KEY_PATTERN = '^[A-Za-z0-9_-][A-Za-z0-9._-]*(/[A-Za-z0-9_-][A-Za-z0-9._-]*)*$';

// The apiserver checks date-time as RFC 3339; TypeBox's Value.Check knows no formats until told.
const RFC3339 = /^\d{4}-\d{2}-\d{2}[Tt]\d{2}:\d{2}:\d{2}(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$/;
if (!FormatRegistry.Has('date-time')) {
  FormatRegistry.Set('date-time', (value) => RFC3339.test(value) && !Number.isNaN(Date.parse(value)));
}

const Phase = Type.Union(
  [
    Type.Literal('queued'),
    Type.Literal('preparing'),
    Type.Literal('rendering'),
    Type.Literal('done'),
    Type.Literal('failed'),
  ],
  {
    description:
      'Where the render is: queued (accepted, no pod running yet), preparing (fetching assets, synthesizing speech), ' +
      'rendering (drawing and encoding frames), done (the MP4 is uploaded), failed (see error). ' +
      'done and failed are final.',
  },
);

export const RenderSpec = Type.Object(
  {
    renderId: Type.String({
      pattern: `^rnd_${ID_CHARS}$`,
      maxLength: ID_LENGTH,
      description: 'The render id of the API (rnd_...), also the key of its row in Postgres.',
    }),
    accountId: Type.String({
      pattern: `^acc_${ID_CHARS}$`,
      maxLength: ID_LENGTH,
      description: 'The account that asked for the render and pays for it (acc_...).',
    }),
    mode: Type.Union([Type.Literal('live'), Type.Literal('test')], {
      description: 'The mode of the API key that created the render: live or test (test renders are watermarked).',
    }),
    // Optional rather than nullable: with a null anywhere in the spec, the apiserver's (v1.33) CEL
    // `self == oldSelf` is false on every update, labels included, so the spec carries no nulls.
    templateId: Type.Optional(
      Type.String({
        pattern: `^tpl_${ID_CHARS}$`,
        maxLength: ID_LENGTH,
        description: 'The template the movie was made from (tpl_...); absent when the movie was sent whole.',
      }),
    ),
    movieKey: Type.String({
      pattern: OBJECT_KEY_PATTERN,
      maxLength: 512,
      description:
        'Object-store key of the resolved, validated movie document (JSON), e.g. movies/rnd_....json. The movie ' +
        'is not inlined: etcd refuses objects over about 1.5 MB and movies can be larger.',
    }),
    movieBytes: Type.Integer({
      minimum: 1,
      description: 'Size of the movie object in bytes; the worker refuses an object of another size.',
    }),
    movieSha256: Type.String({
      pattern: '^[0-9a-f]{64}$',
      maxLength: 64,
      description: 'SHA-256 of the movie object, lower-case hex; the worker refuses an object with another digest.',
    }),
    outputFormat: Type.Optional(
      Type.Union(
        OUTPUT_FORMATS.map((f) => Type.Literal(f)),
        {
          description:
            "The output format, decided when the render was created (the movie's output.format, default mp4) and " +
            'read from here by the worker: what is rendered, how it is encoded, its Content-Type. Always set by ' +
            'this release; absent only on a Render an earlier release made.',
        },
      ),
    ),
    outputKey: Type.String({
      pattern: OBJECT_KEY_PATTERN,
      maxLength: 512,
      description:
        "Object-store key the worker uploads the finished output to, e.g. renders/rnd_....mp4; its extension is outputFormat's.",
    }),
    width: Type.Integer({ minimum: 1, description: 'Output width in pixels; already halved for a draft.' }),
    height: Type.Integer({ minimum: 1, description: 'Output height in pixels; already halved for a draft.' }),
    fps: Type.Integer({ minimum: 1, description: 'Frames per second, from the movie.' }),
    draft: Type.Boolean({ description: 'Render at half width and height with a watermark (a cheap preview).' }),
    watermark: Type.Boolean({ description: 'Draw the visible watermark at full size (trial plan, test keys).' }),
    estimatedDurationSec: Type.Number({
      minimum: 0,
      description:
        "The movie's estimated length in seconds, known before rendering; the operator derives the Job's " +
        'activeDeadlineSeconds from it.',
    }),
    singlePod: Type.Optional(
      Type.Boolean({
        description:
          'Render on one pod, never spread over segment pods: an output format without frames to split ' +
          '(an audio format: mp3, wav) or of one frame (a still: png, jpeg, webp).',
      }),
    ),
    maxAttempts: Type.Optional(
      Type.Integer({
        minimum: 1,
        maximum: 5,
        default: DEFAULT_MAX_ATTEMPTS,
        description:
          'Pods tried before the render fails: a crashed or evicted worker is retried from the start. ' +
          'The Job gets backoffLimit maxAttempts - 1.',
      }),
    ),
  },
  {
    description:
      'What to render. Written once by the API after gating (credits reserved, concurrency checked) and ' +
      'immutable afterwards: a different render is a different Render.',
  },
);
export type RenderSpec = Static<typeof RenderSpec>;

export const RenderCondition = Type.Object(
  {
    type: Type.String({
      maxLength: 316,
      pattern:
        '^([a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*/)?(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])$',
      description: 'Type of the condition, in CamelCase.',
    }),
    status: Type.Union([Type.Literal('True'), Type.Literal('False'), Type.Literal('Unknown')], {
      description: 'Status of the condition: True, False or Unknown.',
    }),
    observedGeneration: Type.Optional(
      Type.Integer({
        minimum: 0,
        format: 'int64',
        description: 'The .metadata.generation the condition was set from.',
      }),
    ),
    lastTransitionTime: Type.String({
      format: 'date-time',
      description: 'When the condition last changed from one status to another.',
    }),
    reason: Type.String({
      minLength: 1,
      maxLength: 1024,
      pattern: '^[A-Za-z]([A-Za-z0-9_,:]*[A-Za-z0-9_])?$',
      description: "A programmatic identifier of the last transition's cause, in CamelCase.",
    }),
    message: Type.String({
      maxLength: 32768,
      description: 'A human-readable message about the transition; may be empty.',
    }),
  },
  { description: 'A condition in the metav1.Condition form.' },
);
export type RenderCondition = Static<typeof RenderCondition>;

const RenderError = Type.Object(
  {
    code: Type.String({
      pattern: '^[A-Z][A-Z0-9_]*$',
      maxLength: 64,
      description: 'Error code from the API catalogue (lib/errors.ts), e.g. ASSET_FETCH_FAILED.',
    }),
    message: Type.String({ maxLength: 4096, description: 'What went wrong and what to do about it.' }),
    path: Type.Optional(
      Type.String({
        maxLength: 1024,
        description: 'JSON path in the movie document the error is about, e.g. /scenes/2/elements/0/src.',
      }),
    ),
  },
  { description: 'Why the render failed; set with phase failed.' },
);

export const RenderStatus = Type.Object(
  {
    phase: Type.Optional(Phase),
    progress: Type.Optional(
      Type.Integer({ minimum: 0, maximum: 100, description: 'Percent done, 0-100; never goes down.' }),
    ),
    durationSec: Type.Optional(
      Type.Number({ minimum: 0, description: 'Length of the movie in seconds, known once preparing is over.' }),
    ),
    duration: Type.Optional(
      Type.String({
        maxLength: 32,
        description:
          'durationSec for people, rounded to 10 ms: "3.37s", "2m40s". Written with durationSec; the DURATION column.',
      }),
    ),
    attempts: Type.Optional(
      Type.Integer({
        minimum: 0,
        description:
          'Worker pods started for this render so far, over all its Jobs (the PODS column): 1 for a render on one pod, ' +
          '1 + segments + 1 for a segmented one when nothing failed. RENDER_MAX_ATTEMPTS (spec.maxAttempts) bounds the ' +
          'pods of each stage (of each segment), not this sum.',
      }),
    ),
    jobName: Type.Optional(
      Type.String({ maxLength: 63, description: 'Name of the batch/v1 Job the operator created for this render.' }),
    ),
    outputKey: Type.Optional(
      Type.String({
        pattern: OBJECT_KEY_PATTERN,
        maxLength: 512,
        description: 'Object-store key of the uploaded MP4; set with phase done.',
      }),
    ),
    error: Type.Optional(RenderError),
    drawing: Type.Optional(
      Type.Object(
        {
          vendor: Type.String({ maxLength: 256, description: "The driver's vendor string, through ANGLE." }),
          renderer: Type.String({
            maxLength: 256,
            description:
              'The driver\'s renderer string, through ANGLE: "ANGLE (NVIDIA Corporation, NVIDIA L4/PCIe/SSE2, OpenGL ES 3.2 NVIDIA 550.54)" on a GPU, "ANGLE (Mesa/X.org, llvmpipe (LLVM 15.0.6 256 bits), OpenGL ES 3.2)" on the CPU (the RENDERER column).',
          }),
          software: Type.Boolean({
            description: 'A software renderer (llvmpipe, lavapipe, SwiftShader): no GPU draws.',
          }),
        },
        {
          description:
            'The GL the worker draws with, set by the pod that draws when it starts (the last one, for a segmented render).',
        },
      ),
    ),
    segments: Type.Optional(
      Type.Integer({
        minimum: 1,
        maximum: 64,
        description:
          'Segments the render is cut into, each rendered by a pod of an Indexed Job; set by the prepare pod. ' +
          'Absent for a render on one pod.',
      }),
    ),
    totalFrames: Type.Optional(
      Type.Integer({ minimum: 0, description: 'Frames of the movie; set by the prepare pod of a segmented render.' }),
    ),
    segmentFrames: Type.Optional(
      Type.Record(Type.String(), Type.Integer({ minimum: 0, description: 'Frames of the segment encoded so far.' }), {
        maxProperties: 64,
        description:
          'Frames encoded so far per segment, keyed by completion index; each segment pod merges its own key.',
      }),
    ),
    segmentsReady: Type.Optional(
      Type.String({
        pattern: '^[0-9]{1,2}/[0-9]{1,2}$',
        maxLength: 5,
        description: 'Segments finished, of all: "3/8". Written by the operator from the Indexed Job.',
      }),
    ),
    startTime: Type.Optional(
      Type.String({ format: 'date-time', description: 'When a worker pod first started on the render.' }),
    ),
    completionTime: Type.Optional(
      Type.String({ format: 'date-time', description: 'When the render reached done or failed.' }),
    ),
    observedGeneration: Type.Optional(
      Type.Integer({
        minimum: 0,
        format: 'int64',
        description: 'The .metadata.generation the operator last reconciled.',
      }),
    ),
    conditions: Type.Optional(
      Type.Array(RenderCondition, {
        maxItems: 16,
        'x-kubernetes-list-type': 'map',
        'x-kubernetes-list-map-keys': ['type'],
        description: 'The latest observations of the render, one per condition type.',
      }),
    ),
  },
  {
    description:
      'What happened so far. Written through the status subresource by the worker pod (progress) and the ' +
      'operator (job, attempts, final phase); the operator mirrors it into Postgres.',
  },
);
export type RenderStatus = Static<typeof RenderStatus>;

/** The object metadata this module sets and reads; the apiserver adds the rest. */
interface RenderMetadata {
  name: string;
  namespace?: string;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
  uid?: string;
  resourceVersion?: string;
  generation?: number;
  creationTimestamp?: string;
  deletionTimestamp?: string;
  finalizers?: string[];
  ownerReferences?: unknown[];
}

export interface Render {
  apiVersion: typeof API_VERSION;
  kind: typeof KIND;
  metadata: RenderMetadata;
  spec: RenderSpec;
  status?: RenderStatus;
}

export interface RenderList {
  apiVersion: typeof API_VERSION;
  kind: typeof LIST_KIND;
  metadata: { resourceVersion?: string; continue?: string };
  items: Render[];
}

/**
 * A length in seconds as the DURATION column prints it: rounded to 10 ms, in the units of a Go
 * duration ("3.37s", "2m40s", "1h2m3.5s"). Printer columns take no formatting, so the status carries it.
 */
export function formatDuration(sec: number): string {
  const cs = Math.round(Math.max(0, sec) * 100);
  const h = Math.floor(cs / 360_000);
  const m = Math.floor((cs % 360_000) / 6000);
  const s = (cs % 6000) / 100;
  return `${h ? `${h}h` : ''}${h || m ? `${m}m` : ''}${s}s`;
}

/** The Render's object name: the render id in DNS-1123 form (`rnd_0abc...` -> `rnd-0abc...`). */
export function renderResourceName(renderId: string): string {
  if (!isId('rnd', renderId)) throw new TypeError(`Not a render id: ${JSON.stringify(renderId)} (expected rnd_...)`);
  return renderId.replace('_', '-');
}

/** The render id a Render's name stands for, or null when the name was not made by renderResourceName. */
export function renderIdFromName(name: string): string | null {
  if (!name.startsWith('rnd-')) return null;
  const id = `rnd_${name.slice(4)}`;
  return isId('rnd', id) ? id : null;
}

/** The labels of a render's Render, Job and pod: selectable by account, template and id. */
export function renderLabels(render: { renderId: string; accountId: string; templateId?: string | null }) {
  const labels: Record<string, string> = {
    [LABELS.renderId]: render.renderId,
    [LABELS.account]: render.accountId,
    [LABELS.managedBy]: MANAGED_BY,
  };
  if (render.templateId) labels[LABELS.template] = render.templateId;
  return labels;
}

/** The movie as it is stored for the worker: its key, its bytes, and what the spec says of them. */
export interface MovieObject {
  key: string;
  body: Buffer;
  bytes: number;
  sha256: string;
}

/** Serializes a resolved movie for the object store (the caller uploads `body` under `key`). */
export function movieObject(renderId: string, movie: unknown): MovieObject {
  const body = Buffer.from(JSON.stringify(movie));
  return {
    key: movieKey(renderId),
    body,
    bytes: body.length,
    sha256: createHash('sha256').update(body).digest('hex'),
  };
}

export type RenderResourceRow = Pick<
  RenderRow,
  | 'id'
  | 'accountId'
  | 'mode'
  | 'templateId'
  | 'draft'
  | 'watermark'
  | 'outputFormat'
  | 'width'
  | 'height'
  | 'fps'
  | 'estimatedSec'
>;

export interface RenderResourceInput {
  render: RenderResourceRow;
  /** Where the movie was uploaded: from movieObject(). */
  movie: Pick<MovieObject, 'key' | 'bytes' | 'sha256'>;
  namespace: string;
  maxAttempts?: number;
  outputKey?: string;
  /** The movie's output format is not split over pods (RenderSpec `singlePod`). */
  singlePod?: boolean;
}

/** The Render to create for a queued render row whose movie is already in the object store. Pure. */
export function renderResource(input: RenderResourceInput): Render {
  const { render, movie } = input;
  const spec: RenderSpec = {
    renderId: render.id,
    accountId: render.accountId,
    mode: render.mode,
    ...(render.templateId ? { templateId: render.templateId } : {}),
    movieKey: movie.key,
    movieBytes: movie.bytes,
    movieSha256: movie.sha256,
    outputFormat: render.outputFormat,
    outputKey: input.outputKey ?? outputKey(render.id),
    width: render.width,
    height: render.height,
    fps: render.fps,
    draft: render.draft,
    watermark: render.watermark,
    estimatedDurationSec: render.estimatedSec,
    ...(input.singlePod ? { singlePod: true } : {}),
    maxAttempts: input.maxAttempts ?? DEFAULT_MAX_ATTEMPTS,
  };
  return {
    apiVersion: API_VERSION,
    kind: KIND,
    metadata: {
      name: renderResourceName(render.id),
      namespace: input.namespace,
      labels: renderLabels({ renderId: render.id, accountId: render.accountId, templateId: render.templateId }),
    },
    spec,
  };
}
