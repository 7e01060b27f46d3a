import assert from 'node:assert/strict';
import { createSocket, type Socket } from 'node:dgram';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { AppError } from '../../lib/errors.ts';
import { checkWebhookUrl } from './webhook-url.ts';

const A = 1;
const AAAA = 28;
/** The zone our DNS server answers; any other name is NXDOMAIN, and `silent.test` never answers. */
const zone: Record<string, { [A]?: Buffer[]; [AAAA]?: Buffer[] }> = {
  'public.test': { [A]: [Buffer.from([93, 184, 216, 34])] },
  'private.test': { [A]: [Buffer.from([10, 0, 0, 5])] },
  // One public and one loopback address: delivery would refuse it, so creation does too.
  'mixed.test': { [A]: [Buffer.from([93, 184, 216, 34])], [AAAA]: [Buffer.from([...Array(15).fill(0), 1])] },
  'metadata.test': { [A]: [Buffer.from([169, 254, 169, 254])] },
};

/** A real DNS server on 127.0.0.1 (UDP, one question per message): enough for c-ares. */
function startDns(): Promise<{ socket: Socket; server: string; questions: string[] }> {
  const socket = createSocket('udp4');
  const questions: string[] = [];
  socket.on('message', (msg, peer) => {
    const labels: string[] = [];
    let at = 12;
    while (msg[at]) {
      labels.push(msg.subarray(at + 1, at + 1 + msg[at]!).toString());
      at += msg[at]! + 1;
    }
    const name = labels.join('.').toLowerCase();
    const type = msg.readUInt16BE(at + 1);
    const question = msg.subarray(12, at + 5);
    questions.push(name);
    if (name === 'silent.test') return;
    const records = zone[name];
    const answers = (records?.[type as typeof A] ?? []).map((rdata) => {
      const rr = Buffer.alloc(12);
      rr.writeUInt16BE(0xc00c, 0); // the name: a pointer to the question's
      rr.writeUInt16BE(type, 2);
      rr.writeUInt16BE(1, 4); // class IN
      rr.writeUInt32BE(60, 6);
      rr.writeUInt16BE(rdata.length, 10);
      return Buffer.concat([rr, rdata]);
    });
    const header = Buffer.alloc(12);
    msg.copy(header, 0, 0, 2);
    header.writeUInt16BE(records ? 0x8180 : 0x8183, 2); // a response, NOERROR or NXDOMAIN
    header.writeUInt16BE(1, 4);
    header.writeUInt16BE(answers.length, 6);
    socket.send(Buffer.concat([header, question, ...answers]), peer.port, peer.address);
  });
  return new Promise((resolve) =>
    socket.bind(0, '127.0.0.1', () =>
      resolve({ socket, server: `127.0.0.1:${(socket.address() as AddressInfo).port}`, questions }),
    ),
  );
}

describe('checkWebhookUrl', () => {
  let dns: Awaited<ReturnType<typeof startDns>>;
  before(async () => {
    dns = await startDns();
  });
  after(() => dns.socket.close());

  const check = (url: string, allowPrivate = false) =>
    checkWebhookUrl(url, { allowPrivate, dnsServers: [dns.server], timeoutMs: 500 });
  const refused = (pattern: RegExp) => (err: unknown) =>
    err instanceof AppError &&
    err.code === 'VALIDATION_ERROR' &&
    err.path === 'webhook_url' &&
    pattern.test(err.message);

  for (const url of [
    'http://127.0.0.1:9/x',
    'http://[::1]/x',
    'http://169.254.169.254/',
    'http://2130706433/',
    'http://0x7f.1/',
    'http://[::ffff:7f00:1]/',
    'http://10.1.2.3/',
    'http://localhost:8080/',
    'http://api.localhost/',
  ]) {
    it(`refuses ${url} without a lookup`, async () => {
      dns.questions.length = 0;
      await assert.rejects(check(url), refused(/private or loopback address/));
      assert.deepEqual(dns.questions, []);
    });
  }

  for (const [name, address] of [
    ['private.test', '10.0.0.5'],
    ['mixed.test', '::1'],
    ['metadata.test', '169.254.169.254'],
  ]) {
    it(`refuses a name that resolves to ${address}`, async () => {
      await assert.rejects(check(`https://${name}/hook`), refused(new RegExp(`resolves to ${address}`)));
    });
  }

  it('accepts a name that resolves to public addresses only', async () => {
    dns.questions.length = 0;
    await check('https://public.test/hook');
    assert.ok(dns.questions.includes('public.test'), 'the name was looked up');
  });

  it('accepts a name that does not resolve (yet), and one whose lookup runs out of time', async () => {
    await check('https://nowhere.test/hook');
    const started = Date.now();
    await check('https://silent.test/hook');
    assert.ok(Date.now() - started < 2000, 'the lookup gave up in time');
  });

  it('accepts anything, without a lookup, when private URLs are allowed', async () => {
    dns.questions.length = 0;
    await check('http://127.0.0.1:9/x', true);
    await check('https://private.test/hook', true);
    assert.deepEqual(dns.questions, []);
  });
});
