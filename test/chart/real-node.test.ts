// The chart on a real one-node cluster. First its NOTES followed from `helm install` to a
// downloaded MP4; then what only a real node shows: a long movie over 4 segment pods, the faults a
// kubelet and containerd make possible, the GPU worker Job's scheduling, and API clients through
// the chart's Ingress served by a real ingress controller (Traefik, built from its Go module:
// test/services/ingress.ts). The cluster: the control plane (etcd, kube-apiserver, kube-controller-manager, kube-scheduler:
// test/services/control-plane.ts) and a real node (kubelet, kube-proxy, containerd, runc, CNI:
// test/services/real-node.ts) running the images `make images` built (framewright,
// framewright-worker), loaded into containerd, nothing pulled. The namespace enforces the restricted
// Pod Security level, as the NOTES advise. Each command is taken from the printed NOTES, not written
// here, so a step that no longer works as printed fails this test:
//   1. `kubectl rollout status deploy/<api>`
//   2. `kubectl exec deploy/<api> -- framewright accounts create ...`
//   3. `kubectl port-forward svc/<api> 8080:<port>` (on a free local port instead of 8080)
//   4. POST the printed movie with the printed headers, poll the printed GET until done, open
//      outputUrl at the same path as printed, download the MP4 and ffprobe it; then
//      `kubectl get renders -o wide` (the apiserver's Table with the PODS and DURATION columns).
// Pods reach this machine's PostgreSQL and S3 server at the node's bridge address (RealNode.expose).
// The release is installed once for all of it; the values that differ from the defaults are this
// node's size (2 CPUs: smaller worker CPU requests) and the segment settings of the long movie.
import assert from 'node:assert/strict';
import { type ChildProcess, execFile } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { promisify } from 'node:util';
import { ListObjectsV2Command, type S3Client } from '@aws-sdk/client-s3';
import type { V1Job, V1Pod } from '@kubernetes/client-node';
import postgres from 'postgres';
import { type Database, openDatabase } from '../../store/database.ts';
import { renderCredits } from '../../store/lifecycle/pricing.ts';
import { logger, newAccount } from '../api/helpers.ts';
import { assertSameAsOneMachine, longMovie } from '../cluster/long-movie.ts';
import { scrape } from '../metrics/exposition.ts';
import { tinyMovie } from '../pipeline/harness.ts';
import { testBucket, until } from '../services/cluster-fixture.ts';
import { type ControlPlane, startControlPlane } from '../services/control-plane.ts';
import { type IngressController, ingressControllerUnavailable, startIngressController } from '../services/ingress.ts';
import { buildImages, NODE_ADDRESS, type RealNode, realNodeUnavailable, startRealNode } from '../services/real-node.ts';
import { CHART, helm } from './chart-helpers.ts';

const NS = 'fw-walk';
const RELEASE = 'fw';
const databaseUrl = process.env.TEST_DATABASE_URL;
const s3Endpoint = process.env.TEST_S3_ENDPOINT;

/** A shell command line split into words (double and single quotes; what the NOTES lines use). */
function shellWords(line: string): string[] {
  const words: string[] = [];
  for (const m of line.matchAll(/"([^"]*)"|'([^']*)'|(\S+)/g)) words.push(m[1] ?? m[2] ?? m[3] ?? '');
  return words;
}

/** The one NOTES line that matches `re` (its match), or a failure quoting the NOTES. */
function noteLine(notes: string, re: RegExp): RegExpMatchArray {
  const m = notes.match(re);
  assert.ok(m, `NOTES has no line matching ${re}:\n${notes}`);
  return m;
}

/** kubectl's column output as rows keyed by header (columns start where their header does). */
function table(stdout: string): Record<string, string>[] {
  const [header = '', ...lines] = stdout.trimEnd().split('\n');
  const starts = [...header.matchAll(/\S+/g)].map((m) => ({ name: m[0], at: m.index ?? 0 }));
  return lines.map((line) =>
    Object.fromEntries(starts.map((c, i) => [c.name, line.slice(c.at, starts[i + 1]?.at ?? line.length).trim()])),
  );
}

const unavailable = realNodeUnavailable() ?? ingressControllerUnavailable();

describe('the chart on a real node: the NOTES walked through, segments, faults, GPU scheduling, an ingress', {
  timeout: 1_800_000,
  skip: unavailable && `no real node here: ${unavailable}`,
}, () => {
  let cp: ControlPlane;
  let node: RealNode;
  let ingress: IngressController;
  let portForward: ChildProcess | undefined;
  /** The S3 server as pods reach it (the node's address). */
  let podS3Endpoint = '';
  let dbUrlForTest = '';
  let installStarted = 0;
  let admin: postgres.Sql;
  let dbName: string;
  let notes = '';
  let key = '';
  let frameworkUrl = '';
  let renderId = '';
  let outputUrl = '';
  let bucket = '';
  /** The test's own view of what the cluster writes: the release's database and bucket. */
  let db: Database;
  let s3Client: S3Client;

  const kubectl = async (args: string[], input?: string) => (await cp.kubectl(args, input)).stdout;
  let forwardArgs: string[] = [];
  /** (Re)starts `kubectl port-forward` with forwardArgs and points frameworkUrl at it. */
  const forward = async () => {
    // Retried: right after containerd restarts, its streaming server refuses for a moment
    // ("error upgrading connection").
    const deadline = Date.now() + 60_000;
    for (;;) {
      try {
        await forwardOnce();
        const res = await fetch(`${frameworkUrl}/healthz`, { signal: AbortSignal.timeout(5000) });
        if (res.ok) return;
        throw new Error(`GET /healthz through the port-forward: ${res.status}`);
      } catch (err) {
        if (Date.now() > deadline) throw err;
        await new Promise((resolve) => setTimeout(resolve, 1000));
      }
    }
  };
  const forwardOnce = async () => {
    portForward?.kill();
    const child = cp.spawnKubectl(forwardArgs);
    portForward = child;
    const local = await new Promise<number>((resolve, reject) => {
      let out = '';
      child.stdout.on('data', (c) => {
        out += c;
        const m = out.match(/Forwarding from 127\.0\.0\.1:(\d+)/);
        if (m) resolve(Number(m[1]));
      });
      child.stderr.on('data', (c) => {
        out += c;
      });
      child.once('exit', (code) => reject(new Error(`kubectl port-forward exited ${code}: ${out}`)));
    });
    frameworkUrl = `http://127.0.0.1:${local}`;
  };
  /** Diagnostics: the pods, their containers' logs and events, and the node's own logs. */
  const logs = async () => {
    const out: string[] = [];
    const pods = await kubectl(['get', '-n', NS, 'pods', '-o', 'wide']).catch((e: Error) => e.message);
    out.push(`--- pods ---\n${pods}`);
    const names = await kubectl(['get', '-n', NS, 'pods', '-o', 'name']).catch(() => '');
    for (const pod of names.split('\n').filter(Boolean)) {
      const log = await kubectl(['logs', '-n', NS, pod, '--all-containers', '--tail=40']).catch(
        (e: Error) => e.message,
      );
      out.push(`--- ${pod} ---\n${log.slice(-2500)}`);
    }
    out.push(
      `--- events ---\n${(await kubectl(['get', '-n', NS, 'events']).catch((e: Error) => e.message)).slice(-4000)}`,
    );
    out.push(node?.logs(2000) ?? '');
    out.push(ingress?.logs(2000) ?? '');
    return out.join('\n');
  };
  before(async () => {
    assert.ok(databaseUrl, 'TEST_DATABASE_URL is set by scripts/test.sh');
    assert.ok(s3Endpoint, 'TEST_S3_ENDPOINT is set by scripts/test.sh');
    dbName = `fw_walk_${randomBytes(4).toString('hex')}`;
    admin = postgres(databaseUrl, { max: 1, onnotice: () => {} });
    await admin.unsafe(`CREATE DATABASE ${dbName}`);
    const clusterDbUrl = databaseUrl.replace(/\/[^/]*$/, `/${dbName}`);
    let podDbUrl = '';
    const s3 = await testBucket(s3Endpoint, 'fw-walk');
    bucket = s3.bucket;
    s3Client = s3.client;

    // The images, as a platform team builds them (incremental: seconds when nothing changed).
    await buildImages();
    cp = await startControlPlane({
      namespace: NS,
      controllers: ['deployment-controller', 'replicaset-controller'],
      node: { name: 'fw-node', advertiseAddress: NODE_ADDRESS },
    });
    node = await startRealNode(cp);
    ingress = await startIngressController(cp, NS);
    // The namespace as the NOTES advise: the restricted Pod Security level, enforced.
    await kubectl(['label', 'namespace', NS, 'pod-security.kubernetes.io/enforce=restricted']);
    // Pods reach this machine's PostgreSQL and S3 server at the node's address.
    const pg = new URL(clusterDbUrl);
    pg.host = await node.expose(Number(pg.port));
    podDbUrl = pg.toString();
    // The migrations are the API pods' to run: opened once they rolled out (below).
    dbUrlForTest = clusterDbUrl;
    const s3Url = new URL(s3Endpoint);
    podS3Endpoint = `http://${await node.expose(Number(s3Url.port))}`;
    // The production way the values describe: Secrets of one's own, named at install.
    await cp.apply(
      {
        apiVersion: 'v1',
        kind: 'Secret',
        metadata: { name: 'framewright', namespace: NS },
        stringData: {
          DATABASE_URL: podDbUrl,
          SIGNING_SECRET: randomBytes(32).toString('hex'),
          S3_ACCESS_KEY_ID: s3.env.S3_ACCESS_KEY_ID,
          S3_SECRET_ACCESS_KEY: s3.env.S3_SECRET_ACCESS_KEY,
        },
      },
      {
        apiVersion: 'v1',
        kind: 'Secret',
        metadata: { name: 'framewright-worker', namespace: NS },
        stringData: {
          S3_ACCESS_KEY_ID: s3.env.S3_ACCESS_KEY_ID,
          S3_SECRET_ACCESS_KEY: s3.env.S3_SECRET_ACCESS_KEY,
        },
      },
    );
  });

  after(async () => {
    portForward?.kill();
    await db?.close();
    await ingress?.stop();
    await node?.stop();
    await cp?.stop();
    if (admin) {
      await admin.unsafe(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`).catch(() => {});
      await admin.end();
    }
  });

  it('helm install prints the NOTES, with no warning for a configured release', async () => {
    installStarted = Date.now();
    const install = await helm([
      'install',
      RELEASE,
      CHART,
      '--namespace',
      NS,
      '--kubeconfig',
      cp.adminKubeconfig,
      '--set',
      'secrets.existingSecret=framewright',
      '--set',
      'secrets.existingWorkerSecret=framewright-worker',
      '--set',
      `s3.bucket=${bucket}`,
      '--set',
      `s3.endpoint=${podS3Endpoint}`,
      // This node has 2 CPUs; the chart asks 2 for each worker (their limit stays).
      '--set',
      'worker.resources.requests.cpu=250m',
      // The long movie (100 s) as 4 segments of 25 s.
      '--set',
      'operator.segments.maxSegments=4',
      '--set',
      'operator.segments.segmentSeconds=25',
      '--set',
      's3.forcePathStyle=true',
    ]);
    assert.equal(install.code, 0, `helm install: ${install.stderr}`);
    notes = install.stdout;
    assert.doesNotMatch(notes, /WARNING/, notes);
    assert.match(notes, /API: {7}deploy\/fw-api \(2 replicas\), service fw-api:80/);
  });

  it('1. the API rolls out (kubectl rollout status, as printed)', async (t) => {
    const [, line] = noteLine(notes, /^\s*(kubectl -n \S+ rollout status deploy\/\S+)\s*$/m);
    const words = shellWords(line ?? '').slice(1);
    assert.deepEqual(words, ['-n', NS, 'rollout', 'status', 'deploy/fw-api']);
    const out = await kubectl([...words, '--timeout=180s']).catch(async (err: Error) => {
      throw new Error(`${err.message}\n${await logs()}`);
    });
    assert.match(out, /successfully rolled out/);
    // The operator too (not in NOTES: its pods lead or stand by).
    await kubectl(['-n', NS, 'rollout', 'status', 'deploy/fw-operator', '--timeout=60s']);
    t.diagnostic(
      `helm install to the API and the operator rolled out: ${((Date.now() - installStarted) / 1000).toFixed(1)} s`,
    );
    t.diagnostic(
      node.imported.length
        ? `imported into containerd before the install: ${node.imported.map((i) => `${i.ref} ${(i.ms / 1000).toFixed(1)} s`).join(', ')}`
        : 'the images were on the node already (imported by an earlier run)',
    );
  });

  it('2. the first account and its key (kubectl exec deploy/<api> -- framewright accounts create, as printed)', async () => {
    const [, deployment, command] = noteLine(
      notes,
      /^\s*kubectl -n \S+ exec deploy\/(\S+) -- (framewright accounts create .*)$/m,
    );
    const words = shellWords(command ?? '');
    assert.deepEqual(words, [
      'framewright',
      'accounts',
      'create',
      '--plan',
      'pro',
      '--credits',
      '1000',
      '--name',
      'First account',
    ]);
    const r = await cp.kubectl(['-n', NS, 'exec', `deploy/${deployment}`, '--', ...words]);
    assert.match(r.stdout, /^account acc_\S+ \(pro, 1000 credits\)$/m);
    const m = r.stdout.match(/^key \S+: (\S+)$/m);
    assert.ok(m?.[1], r.stdout);
    key = m[1];
  });

  it('3. the API is reached through the Service (port-forward svc/<api> 8080:<port>, as printed)', async () => {
    const [, svc, local, port] = noteLine(notes, /^\s*kubectl -n \S+ port-forward svc\/(\S+) (\d+):(\d+) &$/m);
    noteLine(notes, new RegExp(`^\\s*export FRAMEWRIGHT_URL=http://127\\.0\\.0\\.1:${local}$`, 'm'));
    // What port-forward does: the Service's port to its targetPort on one of its pods.
    const service = JSON.parse(await kubectl(['get', '-n', NS, 'svc', svc ?? '', '-o', 'json'])) as {
      spec: { selector: Record<string, string>; ports: { port: number; targetPort: string | number }[] };
    };
    const sp = service.spec.ports.find((p) => p.port === Number(port));
    assert.ok(sp, `svc/${svc} has no port ${port}: ${JSON.stringify(service.spec.ports)}`);
    // kubectl port-forward, as printed, on a free local port: kubectl -> apiserver -> kubelet -> pod.
    forwardArgs = ['-n', NS, 'port-forward', `svc/${svc}`, `0:${port}`];
    await forward();
    const usage = await fetch(`${frameworkUrl}/v1/usage`, { headers: { authorization: `Bearer ${key}` } });
    assert.equal(usage.status, 200, await usage.text());
  });

  it('4. the first render: POST the printed movie, follow it, download outputUrl at the printed path, ffprobe it', async (t) => {
    // The POST as printed: its URL path, headers and body.
    const [post] = noteLine(notes, /curl -sS -X POST "\$FRAMEWRIGHT_URL(\/v1\/renders)" \\\n(?:.*\\\n)*.*-d '.*'$/m);
    const postPath = post.match(/"\$FRAMEWRIGHT_URL(\S+)"/)?.[1];
    const headers = Object.fromEntries(
      [...post.matchAll(/-H "([^:"]+): ([^"]+)"/g)].map((h) => [h[1]?.toLowerCase() ?? '', h[2] ?? '']),
    );
    assert.equal(headers.authorization, 'Bearer <key>');
    headers.authorization = `Bearer ${key}`;
    const body = post.match(/-d '(.*)'$/m)?.[1] ?? '';
    const movie = JSON.parse(body) as { movie: { width: number; height: number; scenes: { duration: number }[] } };
    const res = await fetch(`${frameworkUrl}${postPath}`, { method: 'POST', headers, body });
    const created = (await res.json()) as { id: string; status: string };
    assert.equal(res.status, 201, JSON.stringify(created));
    renderId = created.id;

    const [, getPath] = noteLine(
      notes,
      /curl -sS "\$FRAMEWRIGHT_URL(\/v1\/renders\/)<id>" -H "Authorization: Bearer <key>"/,
    );
    const done = await until(
      'the render to finish',
      async () => {
        const r = await fetch(`${frameworkUrl}${getPath}${renderId}`, { headers: { authorization: `Bearer ${key}` } });
        const j = (await r.json()) as { status: string; outputUrl?: string; error?: unknown };
        return j.status === 'done' || j.status === 'failed' ? j : undefined;
      },
      180_000,
      500,
    ).catch(async (err: Error) => {
      throw new Error(`${err.message}\n${await logs()}`);
    });
    if (done.status !== 'done') assert.fail(`${JSON.stringify(done)}\n${await logs()}`);
    assert.ok(done.outputUrl, JSON.stringify(done));
    outputUrl = done.outputUrl;

    // "Through the port-forward, open them at the same path": the printed ${OUTPUT_URL#prefix}.
    const [, prefix] = noteLine(notes, /curl -o first\.mp4 "\$FRAMEWRIGHT_URL\$\{OUTPUT_URL#([^}]+)\}"/);
    assert.ok(outputUrl.startsWith(prefix ?? ''), `${outputUrl} starts with ${prefix}`);
    const download = await fetch(`${frameworkUrl}${outputUrl.slice((prefix ?? '').length)}`);
    assert.equal(download.status, 200);
    const mp4 = Buffer.from(await download.arrayBuffer());
    const file = path.join(cp.dir, 'first.mp4');
    await writeFile(file, mp4);
    const { stdout } = await promisify(execFile)('ffprobe', [
      '-v',
      'error',
      '-show_entries',
      'stream=codec_type,codec_name,width,height:format=duration',
      '-of',
      'json',
      file,
    ]);
    const probe = JSON.parse(stdout) as {
      streams: { codec_type: string; codec_name: string; width?: number; height?: number }[];
      format: { duration: string };
    };
    const video = probe.streams.find((s) => s.codec_type === 'video');
    assert.deepEqual([video?.codec_name, video?.width, video?.height], ['h264', movie.movie.width, movie.movie.height]);
    assert.deepEqual([movie.movie.width, movie.movie.height], [640, 360]);
    const seconds = Number(probe.format.duration);
    assert.ok(Math.abs(seconds - (movie.movie.scenes[0]?.duration ?? 0)) < 0.2, `duration ${seconds}`);

    // Where the time went (docs/operations.md cites it): the Render and its Job (apiserver times,
    // whole seconds), the container's start (kubelet), the worker's own log (milliseconds).
    const name = renderId.replace('_', '-');
    const render = JSON.parse(await kubectl(['get', '-n', NS, 'render', name, '-o', 'json']));
    const job = JSON.parse(await kubectl(['get', '-n', NS, 'job', name, '-o', 'json']));
    const [pod] = (
      JSON.parse(await kubectl(['get', '-n', NS, 'pods', '-l', `batch.kubernetes.io/job-name=${name}`, '-o', 'json']))
        .items as V1Pod[]
    ).filter(Boolean);
    const log = await kubectl(['logs', '-n', NS, `pod/${pod?.metadata?.name}`]);
    const doneLine = log
      .split('\n')
      .map((l) => {
        try {
          return JSON.parse(l) as { msg?: string; time?: string; renderMs?: number };
        } catch {
          return {};
        }
      })
      .find((l) => l.msg === 'render done');
    const at = (iso: string | Date | undefined) => (iso ? new Date(iso).getTime() : Number.NaN);
    const t0 = at(render.metadata.creationTimestamp);
    const started = at(
      pod?.status?.containerStatuses?.[0]?.state?.terminated?.startedAt ??
        pod?.status?.containerStatuses?.[0]?.state?.running?.startedAt,
    );
    const doneAt = at(doneLine?.time);
    const s1 = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
    t.diagnostic(
      `hello.json on the real node: Render created, Job +${s1(at(job.metadata.creationTimestamp) - t0)}, ` +
        `worker container started +${s1(started - t0)}, first frame +${s1(doneAt - (doneLine?.renderMs ?? 0) - t0)}, ` +
        `done +${s1(doneAt - t0)} (timestamps of the apiserver in whole seconds)`,
    );
  });

  it('kubectl get renders -o wide (as printed) shows the render done, its length, what drew it and its pods', async () => {
    const [, line] = noteLine(notes, /^\s*(kubectl -n \S+ get renders -o wide)\s*$/m);
    const rows = table(await kubectl(shellWords(line ?? '').slice(1)));
    assert.equal(rows.length, 1, JSON.stringify(rows));
    const row = rows[0] ?? {};
    assert.deepEqual(Object.keys(row), [
      'NAME',
      'STATUS',
      'PROGRESS',
      'DURATION',
      'SEGMENTS',
      'AGE',
      'ACCOUNT',
      'JOB',
      'RENDERER',
      'PODS',
    ]);
    assert.deepEqual([row.STATUS, row.PROGRESS, row.DURATION, row.PODS], ['done', '100', '3s', '1']);
    // The worker image draws through EGL with no X server; on this node, Mesa's llvmpipe.
    assert.match(row.RENDERER ?? '', /^ANGLE \(.*llvmpipe.*\)$/);
    assert.match(row.ACCOUNT ?? '', /^acc_/);
    assert.ok(row.JOB, 'the Job it ran in');
  });
  it("a live preview, prepared by the API image's own worker process (no EGL there), with a preview token; no render made", async () => {
    const made = await fetch(`${frameworkUrl}/v1/preview-tokens`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}` },
    });
    assert.equal(made.status, 201, await made.clone().text());
    const { token } = (await made.json()) as { token: string };
    const movie = {
      schema: 'v1',
      width: 320,
      height: 180,
      fps: 10,
      scenes: [
        {
          id: 's',
          duration: 2,
          background: '#102030',
          elements: [
            { id: 't', type: 'text', text: 'Preview', fontSize: 32, color: '#ffffff' },
            { id: 'v', type: 'voice', text: 'Hello there.' },
            { id: 'c', type: 'subtitles', fontSize: 14 },
          ],
        },
      ],
    };
    const res = await fetch(`${frameworkUrl}/v1/previews`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ movie }),
    });
    assert.equal(res.status, 200, await res.clone().text());
    const preview = (await res.json()) as {
      files_url: string;
      sound: string | null;
      words: Record<string, { text: string }[]>;
      plan: { layers: { texture: { file: string; width: number; height: number } }[] };
    };
    // The files through the same Service: the text's raster byte-exact in size, the mixed sound an MP4.
    const path = new URL(preview.files_url).pathname;
    const text = preview.plan.layers[0]!.texture;
    const raster = await fetch(`${frameworkUrl}${path}${encodeURIComponent(text.file)}`);
    assert.equal(raster.status, 200);
    assert.equal((await raster.arrayBuffer()).byteLength, text.width * text.height * 4);
    assert.equal(preview.sound, 'sound.m4a');
    const sound = Buffer.from(await (await fetch(`${frameworkUrl}${path}sound.m4a`)).arrayBuffer());
    assert.equal(sound.subarray(4, 8).toString('latin1'), 'ftyp');
    assert.equal(preview.words['scenes[0].elements[2]']?.length, 2, JSON.stringify(preview.words));
    // The token previews and does nothing else; and previewing made no render.
    assert.equal(
      (await fetch(`${frameworkUrl}/v1/renders`, { headers: { authorization: `Bearer ${token}` } })).status,
      401,
    );
    const renders = await fetch(`${frameworkUrl}/v1/renders`, { headers: { authorization: `Bearer ${key}` } });
    assert.equal(((await renders.json()) as { items: unknown[] }).items.length, 1);
  });

  it("Prometheus's view: the API and operator pods' /metrics at their pod addresses count the first render once", async () => {
    /** The release's pods of a component, with their pod addresses (what a ServiceMonitor scrapes). */
    const podsOf = async (component: string) =>
      (
        JSON.parse(
          await kubectl(['get', '-n', NS, 'pods', '-l', `app.kubernetes.io/component=${component}`, '-o', 'json']),
        ) as { items: V1Pod[] }
      ).items.filter((p) => p.status?.phase === 'Running' && p.status.podIP);
    const apis = await podsOf('api');
    const operators = await podsOf('operator');
    assert.equal(apis.length, 2, 'two API replicas');
    assert.equal(operators.length, 2, 'two operator replicas');
    // The API serves metrics on its own port, never on the one the Service and an Ingress reach.
    const apiPod = apis[0]?.status?.podIP;
    assert.equal((await fetch(`http://${apiPod}:8080/metrics`)).status, 404, 'never on the public port');
    const api = await Promise.all(apis.map((p) => scrape(`http://${p.status?.podIP}:9090/metrics`)));
    const sum = (name: string, labels?: Record<string, string>) => api.reduce((n, m) => n + m.value(name, labels), 0);
    assert.equal(sum('framewright_renders_created_total'), 1, 'one render created, on one of the replicas');
    assert.equal(sum('framewright_renders_completed_total'), 0, 'counted by the operator, not by the API');
    for (const m of api) {
      assert.equal(m.value('framewright_renders', { state: 'done' }), 1, 'the database, as each replica reads it');
    }
    assert.equal(
      sum('framewright_http_request_duration_seconds_count', {
        route: '/v1/renders',
        method: 'POST',
        status_code: '201',
      }),
      1,
    );
    await database();
    const charged = (await row(renderId))?.chargedCredits;

    // The operator: the Lease's holder leads and counts; the other stands by, ready.
    const lease = JSON.parse(await kubectl(['get', '-n', NS, 'lease', 'framewright-operator', '-o', 'json'])) as {
      spec: { holderIdentity: string };
    };
    const leader = operators.find((p) => p.metadata?.name === lease.spec.holderIdentity);
    assert.ok(leader, `the Lease names a running operator pod: ${lease.spec.holderIdentity}`);
    for (const p of operators) {
      const base = `http://${p.status?.podIP}:9090`;
      assert.equal((await fetch(`${base}/healthz`)).status, 200);
      assert.equal((await fetch(`${base}/readyz`)).status, 200);
      assert.equal((await fetch(`${base}/nothing`)).status, 404);
      const m = await scrape(`${base}/metrics`);
      const leads: number = p === leader ? 1 : 0;
      assert.equal(m.value('leader_election_master_status', { name: 'framewright-operator' }), leads);
      assert.equal(m.find('framewright_build_info').length, 1);
      assert.equal(m.types.get('controller_runtime_reconcile_time_seconds'), 'HISTOGRAM');
      if (!leads) continue;
      assert.equal(m.value('framewright_operator_jobs_created_total'), 1);
      assert.equal(m.value('framewright_operator_render_to_job_seconds_count'), 1);
      assert.ok(m.value('controller_runtime_reconcile_total', { controller: 'render', result: 'success' }) >= 2);
      assert.equal(m.value('controller_runtime_reconcile_total', { controller: 'render', result: 'error' }), 0);
      assert.ok(m.value('controller_runtime_reconcile_time_seconds_count', { controller: 'render' }) >= 2);
      assert.ok(m.value('workqueue_adds_total', { name: 'render' }) >= 1);
      assert.ok(m.value('workqueue_queue_duration_seconds_count', { name: 'render' }) >= 2);
      assert.ok(m.value('workqueue_work_duration_seconds_count', { name: 'render' }) >= 2);
      assert.equal(m.find('workqueue_retries_total', { name: 'render' }).length, 1);
      assert.equal(m.value('framewright_credits_charged_total', { reason: 'render' }), charged);
      assert.equal(m.find('workqueue_depth', { name: 'render' }).length, 1);
      assert.equal(m.value('framewright_renders_completed_total'), 1, 'the operator completed it, once');
      assert.equal(m.value('framewright_render_queue_wait_seconds_count'), 1);
      assert.equal(m.value('framewright_render_duration_seconds_count', { outcome: 'done' }), 1);
    }
    // What drew the render, as its pod reported it on the Render: every replica's informer sees it.
    for (const p of operators) {
      const info = (await scrape(`http://${p.status?.podIP}:9090/metrics`)).find('framewright_drawing_renderer_info');
      assert.equal(info.length, 1, JSON.stringify(info));
      assert.equal(info[0]?.labels.software, 'true');
      assert.match(info[0]?.labels.renderer ?? '', /llvmpipe/);
    }
  });

  // ---- Beyond the NOTES: what only a real node shows. ----------------------------------------

  /** The release's database, opened once the API pods have migrated it (after step 1). */
  const database = async () => {
    db ??= await openDatabase({ databaseUrl: dbUrlForTest, dataDir: '.', logger, max: 2 });
    return db;
  };
  const renderName = (id: string) => id.replace('_', '-');
  /** `helm upgrade` of the release with its values and `args` (--set ...), then the operator rolled out again. */
  const upgrade = async (args: string[]) => {
    const r = await helm([
      'upgrade',
      RELEASE,
      CHART,
      '--namespace',
      NS,
      '--kubeconfig',
      cp.adminKubeconfig,
      '--reuse-values',
      ...args,
    ]);
    assert.equal(r.code, 0, r.stderr);
    await kubectl(['-n', NS, 'rollout', 'status', 'deploy/fw-operator', '--timeout=180s']);
  };
  async function row(id: string) {
    const [r] = await db.sql<
      {
        status: string;
        chargedCredits: number;
        error: { code: string; message: string; path?: string } | null;
      }[]
    >`SELECT status, charged_credits, error FROM renders WHERE id = ${id}`;
    return r;
  }
  async function finished(id: string, timeoutMs = 300_000) {
    return until(
      `render ${id} to finish`,
      async () => {
        const r = await row(id);
        return r && (r.status === 'done' || r.status === 'failed') ? r : undefined;
      },
      timeoutMs,
      500,
    ).catch(async (err: Error) => {
      throw new Error(`${err.message}\n${await logs()}`);
    });
  }
  /** Charges in the ledger for renders, and the balance left. */
  async function charges(accountId: string) {
    const [ledger] = await db.sql<{ n: number }[]>`
      SELECT count(*)::int AS n FROM credit_ledger WHERE account_id = ${accountId} AND reason = 'render'`;
    const [account] = await db.sql<{ creditBalance: number }[]>`
      SELECT credit_balance FROM accounts WHERE id = ${accountId}`;
    return { count: ledger?.n ?? 0, balance: account?.creditBalance ?? Number.NaN };
  }
  async function post(key: string, movie: unknown): Promise<string> {
    const res = await fetch(`${frameworkUrl}/v1/renders`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ movie }),
    });
    const body = (await res.json()) as { id: string };
    assert.equal(res.status, 201, JSON.stringify(body));
    return body.id;
  }
  const job = async (name: string) =>
    JSON.parse(await kubectl(['get', '-n', NS, 'job', name, '-o', 'json']).catch(() => 'null')) as V1Job | null;
  const pods = async (prefix: string) =>
    (JSON.parse(await kubectl(['get', '-n', NS, 'pods', '-o', 'json'])) as { items: V1Pod[] }).items.filter((p) =>
      p.metadata?.name?.startsWith(prefix),
    );
  /** How a pod's worker container ended: its exit code and the kubelet's reason (OOMKilled, Error, Completed). */
  const ended = (p: V1Pod) => {
    const st = p.status?.containerStatuses?.[0];
    const t = st?.state?.terminated ?? st?.lastState?.terminated;
    return t ? { exitCode: t.exitCode, reason: t.reason } : undefined;
  };
  const runningPod = (prefix: string, timeoutMs = 240_000) =>
    until(
      `a running pod ${prefix}*`,
      async () =>
        (await pods(prefix)).find((p) => p.status?.phase === 'Running' && !p.metadata?.deletionTimestamp)?.metadata
          ?.name,
      timeoutMs,
      100,
    );
  const rendering = (id: string) =>
    until(`render ${id} to be rendering`, async () => (await row(id))?.status === 'rendering', 240_000, 250);

  it('a long movie over 4 segment pods: the frames and sound of the one-machine render, charged once', async () => {
    await database();
    const { key, accountId } = await newAccount(db, { plan: 'pro', credits: 1000 });
    const id = await post(key, await longMovie());
    const name = renderName(id);
    const done = await finished(id, 600_000);
    if (done.status !== 'done') assert.fail(`${JSON.stringify(done.error)}\n${await logs()}`);

    const segments = await job(`${name}-segments`);
    assert.equal(segments?.spec?.completionMode, 'Indexed');
    assert.equal(segments?.spec?.completions, 4);
    assert.equal(segments?.status?.succeeded, 4);
    const segmentPods = await pods(`${name}-segments-`);
    assert.deepEqual(
      segmentPods.map((p) => [p.status?.phase, ended(p)?.exitCode]),
      [0, 1, 2, 3].map(() => ['Succeeded', 0]),
    );
    assert.equal((await job(`${name}-prepare`))?.status?.succeeded, 1);
    assert.equal((await job(`${name}-join`))?.status?.succeeded, 1);

    const credits = renderCredits({ durationSec: 100, width: 160, height: 90, draft: false });
    assert.equal(done.chargedCredits, credits);
    assert.deepEqual(await charges(accountId), { count: 1, balance: 1000 - credits });
    const work = await s3Client.send(new ListObjectsV2Command({ Bucket: bucket, Prefix: `work/${id}/` }));
    assert.equal(work.KeyCount ?? 0, 0, 'work objects removed after the join');

    await assertSameAsOneMachine({ s3: s3Client, bucket, id, apiBase: frameworkUrl, key });
  });

  it('kubectl delete pod of a segment pod: only its index runs again; done, charged once', async () => {
    await database();
    const { key, accountId } = await newAccount(db, { plan: 'pro', credits: 1000 });
    // Deleted as soon as it runs, at 1080p, where a segment takes seconds: far from its end. (A pod
    // deleted at its end, storing its segment and no longer watching for the stop, finishes rightly
    // and is not run again: not this case. Waiting for its first frames to be reported came too late
    // under load: a CI run saw the segment done by then. With tini as PID 1, a SIGTERM before the
    // worker's handler stops it too.)
    const id = await post(key, { ...(await longMovie()), width: 1920, height: 1080 });
    const name = renderName(id);
    const victim = await runningPod(`${name}-segments-2-`);
    await kubectl(['delete', '-n', NS, 'pod', victim, '--wait=false']);
    const done = await finished(id, 600_000);
    if (done.status !== 'done') assert.fail(`${JSON.stringify(done.error)}\n${await logs()}`);
    // The deleted pod is gone (a graceful deletion ends in the object's removal); its index ran
    // once more, in a pod of another name, and the Job counts the deleted one as its one failure.
    const left = await pods(`${name}-segments-`);
    const segments = await job(`${name}-segments`);
    const seen = JSON.stringify({
      victim,
      job: segments?.status,
      pods: left.map((p) => [p.metadata?.name, p.status?.phase, ended(p)]),
      events: (await kubectl(['get', '-n', NS, 'events', '--field-selector', `involvedObject.name=${victim}`])).slice(
        -3000,
      ),
    });
    assert.ok(!left.some((p) => p.metadata?.name === victim), `${victim} is gone: ${seen}`);
    assert.deepEqual(
      left.map((p) => [p.metadata?.labels?.['batch.kubernetes.io/job-completion-index'], p.status?.phase]).sort(),
      [0, 1, 2, 3].map((i) => [String(i), 'Succeeded']),
      seen,
    );
    assert.equal(segments?.status?.succeeded, 4);
    assert.equal(segments?.status?.failed, 1, 'the deleted pod, counted once against its index');
    assert.equal((await charges(accountId)).count, 1, 'one charge');
    assert.equal(done.chargedCredits, renderCredits({ durationSec: 100, width: 1920, height: 1080, draft: false }));
  });

  it('containerd restarted while segment pods render: the render is done, charged once', async () => {
    await database();
    const { key, accountId } = await newAccount(db, { plan: 'pro', credits: 1000 });
    const id = await post(key, await longMovie());
    const name = renderName(id);
    await runningPod(`${name}-segments-`);
    await node.restartContainerd();
    // The containers outlived it (their shims did); the kubelet's streams through it did not.
    await forward();
    const done = await finished(id, 600_000);
    if (done.status !== 'done') assert.fail(`${JSON.stringify(done.error)}\n${await logs()}`);
    assert.equal((await job(`${name}-segments`))?.status?.succeeded, 4);
    assert.deepEqual(await charges(accountId), { count: 1, balance: 1000 - done.chargedCredits });
  });

  it('an API pod killed mid-render: the render is done and charged once, the API answers through the other', async () => {
    await database();
    const { key, accountId } = await newAccount(db, { plan: 'pro', credits: 1000 });
    const id = await post(key, tinyMovie({ duration: 20 }));
    await rendering(id);
    const [api] = (await pods('fw-api-')).filter((p) => p.status?.phase === 'Running');
    assert.ok(api?.metadata?.name);
    await kubectl(['delete', '-n', NS, 'pod', api.metadata.name, '--grace-period=0', '--force']);
    const done = await finished(id);
    if (done.status !== 'done') assert.fail(`${JSON.stringify(done.error)}\n${await logs()}`);
    assert.deepEqual(await charges(accountId), { count: 1, balance: 1000 - done.chargedCredits });
    // The port-forward went with the pod: a new one reaches a live API pod, which shows the render.
    await kubectl(['-n', NS, 'rollout', 'status', 'deploy/fw-api', '--timeout=180s']);
    await forward();
    const res = await fetch(`${frameworkUrl}/v1/renders/${id}`, { headers: { authorization: `Bearer ${key}` } });
    assert.equal(((await res.json()) as { status: string }).status, 'done');
  });

  it('a GPU worker Job schedules on a node that advertises nvidia.com/gpu; finding only llvmpipe it fails GPU_DRAWING_UNAVAILABLE, unless software drawing is allowed', async () => {
    await database();
    const nodeName = node.name;
    // A GPU node as the NVIDIA device plugin and a platform team make one: the resource in the
    // Node's capacity, a label the values select, a taint only GPU work tolerates.
    await kubectl([
      'patch',
      'node',
      nodeName,
      '--subresource=status',
      '--type=json',
      '-p',
      JSON.stringify([{ op: 'add', path: '/status/capacity/nvidia.com~1gpu', value: '1' }]),
    ]);
    await kubectl(['label', 'node', nodeName, 'framewright.dev/accelerator=nvidia', '--overwrite']);
    try {
      await upgrade([
        '--set',
        'worker.gpus=1',
        '--set-json',
        'worker.nodeSelector={"framewright.dev/accelerator":"nvidia"}',
        '--set-json',
        'worker.tolerations=[{"key":"nvidia.com/gpu","operator":"Exists","effect":"NoSchedule"}]',
      ]);
      // Tainted once the operator rolled out: this one node is also where the chart's other pods run.
      await kubectl(['taint', 'node', nodeName, 'nvidia.com/gpu=present:NoSchedule', '--overwrite']);
      const { key } = await newAccount(db, { plan: 'pro', credits: 1000 });
      // The node advertises a GPU but has no driver: the pod's EGL is Mesa's. It fails at once with
      // its own code, naming what the container lacks, and nothing is charged.
      const refusedId = await post(key, tinyMovie({ duration: 2 }));
      const refused = await finished(refusedId);
      assert.equal(refused.status, 'failed', JSON.stringify(refused));
      const error = refused.error ?? { code: '', message: '' };
      assert.equal(error.code, 'GPU_DRAWING_UNAVAILABLE', error.message);
      assert.match(error.message, /llvmpipe/);
      assert.match(error.message, /no GPU device in the container/);
      assert.match(error.message, /libEGL_nvidia\.so\.0 is not in the container/);
      assert.doesNotMatch(error.message, /no NVIDIA EGL vendor file/, 'the worker image carries the vendor file');
      assert.equal(refused.chargedCredits, 0);
      const [refusedPod] = await pods(renderName(refusedId));
      assert.equal(refusedPod?.spec?.containers[0]?.env?.find((e) => e.name === 'DRAWING_DEVICE')?.value, 'gpu');

      // Allowed to draw on the CPU: it draws on this node's CPU, and encodes there too. (The
      // operator's new pods run on this one node too: untainted while they roll out.)
      await kubectl(['taint', 'node', nodeName, 'nvidia.com/gpu=present:NoSchedule-']);
      await upgrade(['--set', 'worker.allowSoftwareDrawing=true']);
      await kubectl(['taint', 'node', nodeName, 'nvidia.com/gpu=present:NoSchedule', '--overwrite']);
      const id = await post(key, tinyMovie({ duration: 2 }));
      const done = await finished(id);
      if (done.status !== 'done') assert.fail(`${JSON.stringify(done.error)}\n${await logs()}`);
      const [pod] = await pods(renderName(id));
      assert.ok(pod, 'the worker pod');
      assert.equal(pod.spec?.nodeName, nodeName);
      assert.equal(pod.spec?.containers[0]?.resources?.limits?.['nvidia.com/gpu'], '1');
      assert.deepEqual(pod.spec?.nodeSelector, { 'framewright.dev/accelerator': 'nvidia' });
      assert.ok(
        pod.spec?.tolerations?.some((t) => t.key === 'nvidia.com/gpu' && t.effect === 'NoSchedule'),
        JSON.stringify(pod.spec?.tolerations),
      );
      // No NVIDIA driver here: the encoder probe chose libx264, and ANGLE found llvmpipe, which the worker says.
      const log = await kubectl(['logs', '-n', NS, `pod/${pod.metadata?.name}`]);
      assert.match(log, /"codec":"libx264".*video encoder chosen/);
      assert.match(log, /"renderer":"ANGLE \([^"]*llvmpipe[^"]*\)","software":true.*drawing with/);
    } finally {
      await kubectl(['taint', 'node', nodeName, 'nvidia.com/gpu=present:NoSchedule-']).catch(() => '');
      await upgrade([
        '--set',
        'worker.gpus=0',
        '--set',
        'worker.allowSoftwareDrawing=false',
        '--set-json',
        'worker.nodeSelector={}',
        '--set-json',
        'worker.tolerations=[]',
      ]);
    }
  });

  it('API clients over a real ingress controller (Traefik): create, poll, download the output, a 90 MiB asset up and down', async (t) => {
    await database();
    // The Ingress enabled as a platform team without TLS at the controller enables it: the
    // controller's IngressClass, and the public address clients use (outputUrl, asset URLs).
    await upgrade([
      '--set',
      'api.ingress.enabled=true',
      '--set',
      `api.ingress.className=${ingress.className}`,
      '--set',
      'publicBaseUrl=http://framewright.local',
    ]);
    await kubectl(['-n', NS, 'rollout', 'status', 'deploy/fw-api', '--timeout=180s']);
    // The NOTES now point clients at the Ingress, not a port-forward.
    const upgraded = await helm(['get', 'notes', RELEASE, '--namespace', NS, '--kubeconfig', cp.adminKubeconfig]);
    const [, base] = noteLine(upgraded.stdout, /^\s*export FRAMEWRIGHT_URL=(\S+)$/m);
    assert.equal(base, 'http://framewright.local');
    assert.doesNotMatch(upgraded.stdout, /port-forward/);
    const host = new URL(base ?? '').host;
    // The controller took the Ingress: it publishes its address in the Ingress's status.
    await until(
      'the Ingress to carry the controller address',
      async () => {
        const ing = JSON.parse(await kubectl(['get', '-n', NS, 'ingress', 'fw-api', '-o', 'json'])) as {
          status?: { loadBalancer?: { ingress?: { ip?: string }[] } };
        };
        return ing.status?.loadBalancer?.ingress?.[0]?.ip === '127.0.0.1' || undefined;
      },
      60_000,
      250,
    ).catch((err: Error) => {
      throw new Error(`${err.message}\n${ingress.logs()}`);
    });
    await until(
      'the ingress to route to the API',
      async () => (await ingress.request(host, 'GET', '/healthz', { timeoutMs: 5000 })).status === 200 || undefined,
      60_000,
      250,
    ).catch((err: Error) => {
      throw new Error(`${err.message}\n${ingress.logs()}`);
    });
    const { key, accountId } = await newAccount(db, { plan: 'pro', credits: 1000 });
    const auth = { authorization: `Bearer ${key}` };
    const json = (r: { body: Buffer }) => JSON.parse(r.body.toString('utf8'));
    /**
     * GET of a public URL's path through the controller: the bytes, served by the API (an asset)
     * or by the object store it redirects to (an output).
     */
    const download = async (publicUrl: string): Promise<Buffer> => {
      const u = new URL(publicUrl);
      assert.equal(u.origin, base, `${publicUrl} is at the public address`);
      const res = await ingress.request(host, 'GET', `${u.pathname}${u.search}`);
      if (res.status === 200) return res.body;
      assert.equal(res.status, 302, res.body.subarray(0, 500).toString());
      const stored = await fetch(String(res.headers.location));
      assert.equal(stored.status, 200);
      return Buffer.from(await stored.arrayBuffer());
    };

    // Create and poll, as the NOTES' curl lines do, through the controller.
    const created = await ingress.request(host, 'POST', '/v1/renders', {
      headers: { ...auth, 'content-type': 'application/json' },
      body: JSON.stringify({ movie: tinyMovie({ duration: 2 }) }),
    });
    assert.equal(created.status, 201, created.body.toString());
    const id = json(created).id as string;
    const done = await until(
      `render ${id} to finish (polled through the ingress)`,
      async () => {
        const j = json(await ingress.request(host, 'GET', `/v1/renders/${id}`, { headers: auth }));
        return j.status === 'done' || j.status === 'failed' ? (j as { status: string; outputUrl?: string }) : undefined;
      },
      300_000,
      500,
    ).catch(async (err: Error) => {
      throw new Error(`${err.message}\n${await logs()}`);
    });
    assert.equal(done.status, 'done', JSON.stringify(done));
    // outputUrl is at the public address; through the controller it leads to the MP4.
    const mp4 = await download(done.outputUrl ?? '');
    const file = path.join(cp.dir, 'ingress.mp4');
    await writeFile(file, mp4);
    const { stdout } = await promisify(execFile)('ffprobe', [
      '-v',
      'error',
      '-show_entries',
      'stream=codec_name:format=duration',
      '-of',
      'json',
      file,
    ]);
    const probe = JSON.parse(stdout) as { streams: { codec_name: string }[]; format: { duration: string } };
    assert.equal(probe.streams[0]?.codec_name, 'h264');
    assert.ok(Math.abs(Number(probe.format.duration) - 2) < 0.2, `duration ${probe.format.duration}`);
    assert.deepEqual(await charges(accountId), { count: 1, balance: 1000 - (await row(id))!.chargedCredits });

    // A 90 MiB upload in one request body: ingress-nginx would refuse it without the chart's
    // annotations (1 MiB); Traefik has no body limit, and its entry point waits 600 s, not 60.
    const dir = await mkdtemp(path.join(tmpdir(), 'fw-asset-'));
    try {
      // 491 s of 48 kHz stereo PCM: 94,272,044 bytes (89.9 MiB), under the 100 MiB default limit.
      const wav = path.join(dir, 'long.wav');
      await promisify(execFile)('ffmpeg', [
        '-v',
        'error',
        '-f',
        'lavfi',
        '-i',
        'sine=frequency=440:sample_rate=48000:duration=491',
        '-ac',
        '2',
        wav,
      ]);
      const bytes = await readFile(wav);
      assert.ok(bytes.length > 90 * 1024 * 1024 * 0.99, `${bytes.length} bytes`);
      const started = Date.now();
      const uploaded = await ingress.request(host, 'POST', '/v1/assets?name=long.wav', {
        headers: { ...auth, 'content-type': 'application/octet-stream' },
        body: bytes,
      });
      t.diagnostic(`a 90 MiB upload through the ingress: ${((Date.now() - started) / 1000).toFixed(1)} s`);
      const asset = json(uploaded) as { kind: string; size: number; url: string };
      assert.equal(uploaded.status, 201, JSON.stringify(asset));
      assert.deepEqual([asset.kind, asset.size], ['audio', bytes.length]);
      // The signed content URL at the public address, through the controller.
      const got = await download(asset.url);
      assert.equal(
        createHash('sha256').update(got).digest('hex'),
        createHash('sha256').update(bytes).digest('hex'),
        'the bytes downloaded are the bytes uploaded',
      );
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
    // Each of those requests went through the controller: its access log has them, answered.
    const access = ingress.logs(200_000);
    for (const line of [
      `"POST /v1/renders HTTP/1.1" 201`,
      `"GET /v1/renders/${id} HTTP/1.1" 200`,
      `"POST /v1/assets?name=long.wav HTTP/1.1" 201`,
    ]) {
      assert.ok(access.includes(line), `the controller's access log has ${line}`);
    }
    // The API pods rolled: the port-forward the later cases use follows them.
    await forward();
  });

  it('a worker over its memory limit is OOMKilled: the Job retries it, then the render fails with a clear code, nothing charged', async () => {
    await database();
    await upgrade(['--set', 'worker.resources.requests.memory=96Mi', '--set', 'worker.resources.limits.memory=96Mi']);
    const { key, accountId } = await newAccount(db, { plan: 'pro', credits: 1000 });
    const id = await post(key, tinyMovie({ duration: 2 }));
    const failed = await finished(id);
    assert.equal(failed.status, 'failed');
    const workerPods = await pods(renderName(id));
    assert.ok(workerPods.length >= 1);
    assert.ok(
      workerPods.every((p) => ended(p)?.reason === 'OOMKilled'),
      JSON.stringify(workerPods.map((p) => ended(p))),
    );
    assert.equal(failed.error?.code, 'RENDER_FAILED', JSON.stringify(failed.error));
    assert.match(failed.error?.message ?? '', /memory/);
    assert.equal(failed.chargedCredits, 0);
    assert.deepEqual(await charges(accountId), { count: 0, balance: 1000 });
  });
});
