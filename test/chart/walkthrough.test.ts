// The chart's NOTES followed once from `helm install` to a downloaded MP4, on a real one-node
// cluster: the control plane (etcd, kube-apiserver, kube-controller-manager, kube-scheduler:
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
import assert from 'node:assert/strict';
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import postgres from 'postgres';
import { testBucket, until } from '../services/cluster-fixture.ts';
import { type ControlPlane, startControlPlane } from '../services/control-plane.ts';
import { NODE_ADDRESS, type RealNode, realNodeUnavailable, startRealNode } from '../services/real-node.ts';
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

/** Where the images `make images` builds are: this test runs them, and builds them first if need be. */
const IMAGES_SCRIPT = fileURLToPath(new URL('../../scripts/images.sh', import.meta.url));
const unavailable = realNodeUnavailable();

describe('NOTES walked through on a real node: helm install to a downloaded MP4', {
  timeout: 900_000,
  skip: unavailable && `no real node here: ${unavailable}`,
}, () => {
  let cp: ControlPlane;
  let node: RealNode;
  let portForward: ChildProcess | undefined;
  /** The S3 server as pods reach it (the node's address). */
  let podS3Endpoint = '';
  let admin: postgres.Sql;
  let dbName: string;
  let notes = '';
  let key = '';
  let frameworkUrl = '';
  let renderId = '';
  let outputUrl = '';
  let bucket = '';

  const kubectl = async (args: string[], input?: string) => (await cp.kubectl(args, input)).stdout;
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

    // The images, as a platform team builds them (incremental: seconds when nothing changed).
    await promisify(execFile)(IMAGES_SCRIPT, [], { maxBuffer: 16 * 1024 * 1024, timeout: 1_800_000 });
    cp = await startControlPlane({
      namespace: NS,
      controllers: ['deployment-controller', 'replicaset-controller'],
      node: { name: 'fw-node', advertiseAddress: NODE_ADDRESS },
    });
    node = await startRealNode(cp);
    // The namespace as the NOTES advise: the restricted Pod Security level, enforced.
    await kubectl(['label', 'namespace', NS, 'pod-security.kubernetes.io/enforce=restricted']);
    // Pods reach this machine's PostgreSQL and S3 server at the node's address.
    const db = new URL(clusterDbUrl);
    db.host = await node.expose(Number(db.port));
    podDbUrl = db.toString();
    const s3Url = new URL(s3Endpoint);
    podS3Endpoint = `http://${await node.expose(Number(s3Url.port))}`;
    // The production way the values describe: Secrets of one's own, named at install.
    await kubectl(
      ['apply', '-f', '-'],
      JSON.stringify({
        apiVersion: 'v1',
        kind: 'List',
        items: [
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
        ],
      }),
    );
  });

  after(async () => {
    portForward?.kill();
    await node?.stop();
    await cp?.stop();
    if (admin) {
      await admin.unsafe(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`).catch(() => {});
      await admin.end();
    }
  });

  it('helm install prints the NOTES, with no warning for a configured release', async () => {
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
      'worker.resources.requests.cpu=500m',
      '--set',
      's3.forcePathStyle=true',
    ]);
    assert.equal(install.code, 0, `helm install: ${install.stderr}`);
    notes = install.stdout;
    assert.doesNotMatch(notes, /WARNING/, notes);
    assert.match(notes, /API: {7}deploy\/fw-api \(2 replicas\), service fw-api:80/);
  });

  it('1. the API rolls out (kubectl rollout status, as printed)', async () => {
    const [, line] = noteLine(notes, /^\s*(kubectl -n \S+ rollout status deploy\/\S+)\s*$/m);
    const words = shellWords(line ?? '').slice(1);
    assert.deepEqual(words, ['-n', NS, 'rollout', 'status', 'deploy/fw-api']);
    const out = await kubectl([...words, '--timeout=180s']).catch(async (err: Error) => {
      throw new Error(`${err.message}\n${await logs()}`);
    });
    assert.match(out, /successfully rolled out/);
    // The operator too (not in NOTES: its pods lead or stand by).
    await kubectl(['-n', NS, 'rollout', 'status', 'deploy/fw-operator', '--timeout=60s']);
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
    portForward = spawn('kubectl', [
      `--kubeconfig=${cp.adminKubeconfig}`,
      '-n',
      NS,
      'port-forward',
      `svc/${svc}`,
      `0:${port}`,
    ]);
    const forwarded = await new Promise<number>((resolve, reject) => {
      let out = '';
      portForward?.stdout?.on('data', (c) => {
        out += c;
        const m = out.match(/Forwarding from 127\.0\.0\.1:(\d+)/);
        if (m) resolve(Number(m[1]));
      });
      portForward?.stderr?.on('data', (c) => {
        out += c;
      });
      portForward?.once('exit', (code) => reject(new Error(`kubectl port-forward exited ${code}: ${out}`)));
    });
    frameworkUrl = `http://127.0.0.1:${forwarded}`;
    const usage = await fetch(`${frameworkUrl}/v1/usage`, { headers: { authorization: `Bearer ${key}` } });
    assert.equal(usage.status, 200, await usage.text());
  });

  it('4. the first render: POST the printed movie, follow it, download outputUrl at the printed path, ffprobe it', async () => {
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
  });

  it('kubectl get renders -o wide (as printed) shows the render done, its length and its pods', async () => {
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
      'PODS',
    ]);
    assert.deepEqual([row.STATUS, row.PROGRESS, row.DURATION, row.PODS], ['done', '100', '3s', '1']);
    assert.match(row.ACCOUNT ?? '', /^acc_/);
    assert.ok(row.JOB, 'the Job it ran in');
  });
});
