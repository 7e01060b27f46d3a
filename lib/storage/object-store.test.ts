import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { text } from 'node:stream/consumers';
import { after, before, describe, it } from 'node:test';
import { CreateBucketCommand } from '@aws-sdk/client-s3';
import { LocalObjectStore } from './local-store.ts';
import { type ObjectStore, parseRange } from './object-store.ts';
import { fileCrc32, S3ObjectStore } from './s3-store.ts';

describe('parseRange', () => {
  const cases: [string | undefined, number, ReturnType<typeof parseRange>][] = [
    [undefined, 100, undefined],
    ['bytes=0-9', 100, { start: 0, end: 9 }],
    ['bytes=90-', 100, { start: 90, end: 99 }],
    ['bytes=-10', 100, { start: 90, end: 99 }],
    ['bytes=-500', 100, { start: 0, end: 99 }],
    ['bytes=50-500', 100, { start: 50, end: 99 }],
    ['bytes=100-', 100, 'unsatisfiable'],
    ['bytes=9-3', 100, 'unsatisfiable'],
    ['bytes=-0', 100, 'unsatisfiable'],
    ['bytes=0-1,5-6', 100, undefined],
    ['items=0-1', 100, undefined],
  ];
  for (const [header, size, want] of cases) {
    it(`${header ?? '(none)'} of ${size}`, () => assert.deepEqual(parseRange(header, size), want));
  }
});

const s3Endpoint = process.env.TEST_S3_ENDPOINT;
const scratch = await mkdtemp(join(tmpdir(), 'fw-objects-'));
after(() => rm(scratch, { recursive: true, force: true }));

const adapters: [string, () => Promise<ObjectStore>][] = [
  ['local disk', async () => new LocalObjectStore(join(scratch, 'objects'))],
];
if (s3Endpoint) {
  adapters.push([
    'S3 (moto server)',
    async () => {
      const store = new S3ObjectStore({
        bucket: `fw-test-${Date.now()}`,
        region: 'us-east-1',
        endpoint: s3Endpoint,
        accessKeyId: 'test',
        secretAccessKey: 'test',
        prefix: 'install-a',
      });
      await store.client.send(new CreateBucketCommand({ Bucket: store.bucket }));
      return store;
    },
  ]);
}

for (const [name, make] of adapters) {
  describe(`ObjectStore: ${name}`, () => {
    let store: ObjectStore;
    before(async () => {
      store = await make();
    });

    it('stores a file and reads it back whole and by range', async () => {
      const src = join(scratch, `src-${name.length}.txt`);
      await writeFile(src, 'hello, framewright');
      const info = await store.putFile('renders/rnd_a.mp4', src, 'video/mp4');
      assert.deepEqual(info, { size: 18, contentType: 'video/mp4' });
      assert.deepEqual(await store.head('renders/rnd_a.mp4'), { size: 18, contentType: 'video/mp4' });
      const whole = await store.get('renders/rnd_a.mp4');
      assert.ok(whole);
      assert.equal(await text(whole.body), 'hello, framewright');
      const part = await store.get('renders/rnd_a.mp4', { start: 7, end: 16 });
      assert.ok(part);
      assert.equal(part.size, 18);
      assert.deepEqual(part.range, { start: 7, end: 16 });
      assert.equal(await text(part.body), 'framewrigh');
    });

    it('answers null for a missing object and deletes idempotently', async () => {
      await store.putBuffer('assets/ast_b.png', Buffer.from([1, 2, 3]), 'image/png');
      await store.delete('assets/ast_b.png');
      await store.delete('assets/ast_b.png');
      assert.equal(await store.head('assets/ast_b.png'), null);
      assert.equal(await store.get('assets/ast_b.png'), null);
    });

    it('refuses keys that could escape the root', async () => {
      for (const key of ['../etc/passwd', 'a/../../b', '/abs', 'a//b', '']) {
        await assert.rejects(store.putBuffer(key, Buffer.from('x'), 'text/plain'), TypeError, key);
      }
    });
  });
}

describe('S3 presigned URLs', {
  skip: s3Endpoint ? false : 'TEST_S3_ENDPOINT is not set (run through scripts/test.sh)',
}, () => {
  it('lets a client without credentials fetch the object, with the requested lifetime and file name', async () => {
    const bucket = `fw-presign-${Date.now()}`;
    const store = new S3ObjectStore({
      bucket,
      region: 'us-east-1',
      endpoint: s3Endpoint as string,
      accessKeyId: 'test',
      secretAccessKey: 'test',
    });
    await store.client.send(new CreateBucketCommand({ Bucket: bucket }));
    await store.putBuffer('renders/rnd_c.mp4', Buffer.from('movie bytes'), 'video/mp4');
    const url = await store.presignGet?.('renders/rnd_c.mp4', 60, 'rnd_c.mp4');
    assert.ok(url);
    assert.match(url, /X-Amz-Expires=60/);
    const res = await fetch(url);
    assert.equal(res.status, 200);
    assert.equal(await res.text(), 'movie bytes');
    assert.equal(res.headers.get('content-disposition'), 'attachment; filename="rnd_c.mp4"');
  });
});

describe('S3 file uploads', {
  skip: s3Endpoint ? false : 'TEST_S3_ENDPOINT is not set (run through scripts/test.sh)',
}, () => {
  it('send a plain body with its CRC32 in a header, not an aws-chunked body with a trailer', async () => {
    // "123456789" is CRC-32's published check input: its CRC is 0xCBF43926.
    const src = join(scratch, 'check.txt');
    await writeFile(src, '123456789');
    assert.equal(await fileCrc32(src), Buffer.from([0xcb, 0xf4, 0x39, 0x26]).toString('base64'));
    const store = new S3ObjectStore({
      bucket: `fw-crc-${Date.now()}`,
      region: 'us-east-1',
      endpoint: s3Endpoint as string,
      accessKeyId: 'test',
      secretAccessKey: 'test',
    });
    await store.client.send(new CreateBucketCommand({ Bucket: store.bucket }));
    // The request as it goes on the wire (the deserialize step sees it last).
    const sent: Record<string, string>[] = [];
    store.client.middlewareStack.add(
      (next) => async (args) => {
        const request = args.request as { headers: Record<string, string> };
        sent.push({ ...request.headers });
        return next(args);
      },
      { step: 'deserialize', name: 'captureUploadHeaders' },
    );
    await store.putFile('renders/rnd_crc.txt', src, 'text/plain');
    assert.equal(sent.length, 1);
    const headers = sent[0] as Record<string, string>;
    assert.equal(headers['x-amz-checksum-crc32'], 'y/Q5Jg==');
    assert.equal(headers['content-length'], '9');
    assert.equal(headers['content-encoding'], undefined);
    assert.equal(headers['x-amz-trailer'], undefined);
    const got = await store.get('renders/rnd_crc.txt');
    assert.ok(got);
    assert.equal(await text(got.body), '123456789');
  });
});
