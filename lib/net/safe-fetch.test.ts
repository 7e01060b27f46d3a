import assert from 'node:assert/strict';
import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import { type ClientRequest, createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { isPrivateAddress, isPrivateHostLiteral } from './address-policy.ts';
import { FetchRefusedError, guardedLookup, safeFetch } from './safe-fetch.ts';
import { isTrustedUrl, parseTrustedPrefixes } from './trusted-prefixes.ts';

describe('isPrivateAddress', () => {
  const cases: [string, boolean][] = [
    ['127.0.0.1', true],
    ['127.255.0.9', true],
    ['10.1.2.3', true],
    ['172.16.0.1', true],
    ['172.31.255.255', true],
    ['172.32.0.1', false],
    ['192.168.1.1', true],
    ['169.254.169.254', true],
    ['100.64.0.1', true],
    ['0.0.0.0', true],
    ['224.0.0.1', true],
    ['8.8.8.8', false],
    ['93.184.216.34', false],
    ['::1', true],
    ['::', true],
    ['fe80::1', true],
    ['fd12:3456::1', true],
    ['::ffff:10.0.0.1', true],
    ['::ffff:127.0.0.1', true],
    ['::ffff:8.8.8.8', false],
    ['2606:4700:4700::1111', false],
    ['not-an-ip', true],
    // IPv6 spellings that carry an IPv4 address the connection would really go to.
    ['::127.0.0.1', true],
    ['::7f00:1', true],
    ['::8.8.8.8', true],
    ['::ffff:7f00:1', true],
    ['::ffff:a9fe:a9fe', true],
    ['::ffff:0808:0808', false],
    ['::ffff:0:7f00:1', true],
    ['2002:7f00:1::', true],
    ['2002:a9fe:a9fe::1', true],
    ['2002:0808:0808::1', false],
    ['64:ff9b::7f00:1', true],
    ['64:ff9b:1::1', true],
    ['2001:0:4136:e378:8000:63bf:3fff:fdd2', true],
  ];
  for (const [address, want] of cases) {
    it(`${address} -> ${want ? 'private' : 'public'}`, () => assert.equal(isPrivateAddress(address), want));
  }
});

describe('isPrivateHostLiteral, on the WHATWG-parsed host', () => {
  const cases: [string, boolean][] = [
    ['http://2130706433/', true],
    ['http://0x7f.1/', true],
    ['http://0177.0.0.1/', true],
    ['http://127.1/', true],
    ['http://0xa9.0xfe.0xa9.0xfe/', true],
    ['http://[::127.0.0.1]/', true],
    ['http://[::ffff:7f00:1]/', true],
    ['http://[::ffff:127.0.0.1]/', true],
    ['http://[2002:7f00:1::]/', true],
    ['http://localhost./', true],
    ['http://api.LOCALHOST/', true],
    ['http://134744072/', false],
    ['http://example.com/', false],
  ];
  for (const [url, want] of cases) {
    it(`${url} -> ${want ? 'private' : 'not known private'}`, () => {
      assert.equal(isPrivateHostLiteral(new URL(url).hostname), want);
    });
  }
});

describe('guardedLookup', () => {
  it('refuses a hostname that resolves to loopback', async () => {
    const err = await new Promise<NodeJS.ErrnoException | null>((resolve) =>
      guardedLookup('localhost', {}, (e) => resolve(e)),
    );
    assert.equal(err?.code, 'EPRIVATEADDRESS');
    assert.match(err?.message ?? '', /localhost resolves to 127\.0\.0\.1/);
  });
});

describe('safeFetch against a local server', () => {
  let server: Server;
  let base: string;
  before(async () => {
    server = createServer((req, res) => {
      const url = new URL(req.url ?? '/', 'http://x');
      if (url.pathname === '/ok') {
        res.writeHead(200, { 'content-type': 'text/plain' }).end('fine');
      } else if (url.pathname === '/hop') {
        const n = Number(url.searchParams.get('n'));
        res.writeHead(302, { location: n > 0 ? `/hop?n=${n - 1}` : '/ok' }).end();
      } else if (url.pathname === '/big') {
        res.writeHead(200, { 'content-type': 'application/octet-stream' });
        res.end(Buffer.alloc(2048));
      } else if (url.pathname === '/slow') {
        setTimeout(() => res.writeHead(200).end('late'), 2000).unref();
      } else if (url.pathname === '/echo') {
        let body = '';
        req.on('data', (c) => {
          body += c;
        });
        req.on('end', () => res.writeHead(201, { 'content-type': 'application/json' }).end(body));
      } else {
        res.writeHead(404).end();
      }
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(() => server.close());

  const refused = (reason: FetchRefusedError['reason']) => (err: unknown) =>
    err instanceof FetchRefusedError && err.reason === reason;

  it('refuses loopback by default, by literal and by name', async () => {
    await assert.rejects(safeFetch(`${base}/ok`, { allowPrivate: false }), refused('private-address'));
    const port = new URL(base).port;
    await assert.rejects(safeFetch(`http://localhost:${port}/ok`, { allowPrivate: false }), refused('private-address'));
    await assert.rejects(safeFetch(`http://[::1]:${port}/ok`, { allowPrivate: false }), refused('private-address'));
  });

  it('fetches when private URLs are allowed', async () => {
    const res = await safeFetch(`${base}/ok`, { allowPrivate: true });
    assert.equal(res.status, 200);
    assert.equal(res.body.toString(), 'fine');
  });

  it('follows up to the redirect limit and no further', async () => {
    const ok = await safeFetch(`${base}/hop?n=2`, { allowPrivate: true, maxRedirects: 3 });
    assert.equal(ok.body.toString(), 'fine');
    assert.equal(ok.url, `${base}/ok`);
    await assert.rejects(safeFetch(`${base}/hop?n=3`, { allowPrivate: true, maxRedirects: 3 }), refused('redirects'));
  });

  it('caps the body size', async () => {
    await assert.rejects(safeFetch(`${base}/big`, { allowPrivate: true, maxBytes: 1024 }), refused('too-large'));
    const res = await safeFetch(`${base}/big`, { allowPrivate: true, maxBytes: 4096 });
    assert.equal(res.body.length, 2048);
  });

  it('times out', async () => {
    await assert.rejects(safeFetch(`${base}/slow`, { allowPrivate: true, timeoutMs: 200 }), refused('timeout'));
  });

  it('refuses other schemes', async () => {
    await assert.rejects(safeFetch('file:///etc/passwd', { allowPrivate: true }), refused('scheme'));
  });

  it('posts a body', async () => {
    const res = await safeFetch(`${base}/echo`, {
      allowPrivate: true,
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"a":1}',
    });
    assert.equal(res.status, 201);
    assert.equal(res.body.toString(), '{"a":1}');
  });

  it("hands back the caller's abort reason", async () => {
    const controller = new AbortController();
    const reason = new Error('render cancelled');
    setTimeout(() => controller.abort(reason), 50);
    await assert.rejects(safeFetch(`${base}/slow`, { allowPrivate: true, signal: controller.signal }), reason);
  });
});

describe('safeFetch judges trust on every hop', () => {
  // R is trusted (the API's own assets on loopback), S is another loopback service.
  let trusted: Server;
  let other: Server;
  let r: string;
  let s: string;
  let otherHits = 0;
  // Every HTTP request this process starts, as host header + path: proof of what was contacted.
  const started: string[] = [];
  const onStart = (message: unknown) => {
    const req = (message as { request: ClientRequest }).request;
    started.push(`${req.getHeader('host')}${req.path}`);
  };
  before(async () => {
    other = createServer((_req, res) => {
      otherHits++;
      res.writeHead(200).end('secret');
    });
    trusted = createServer((req, res) => {
      const to = { '/to-other': `${s}/secret`, '/to-metadata': 'http://169.254.169.254/latest/meta-data/' }[
        req.url ?? ''
      ];
      if (to) res.writeHead(302, { location: to }).end();
      else if (req.url === '/assets/a') res.writeHead(302, { location: '/assets/b' }).end();
      else res.writeHead(200).end(`trusted ${req.url}`);
    });
    for (const server of [trusted, other]) await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
    r = `127.0.0.1:${(trusted.address() as AddressInfo).port}`;
    s = `http://127.0.0.1:${(other.address() as AddressInfo).port}`;
    subscribe('http.client.request.start', onStart);
  });
  after(() => {
    unsubscribe('http.client.request.start', onStart);
    trusted.close();
    other.close();
  });

  const options = (prefix: string) => {
    const prefixes = parseTrustedPrefixes(prefix);
    return { allowPrivate: false, isTrusted: (url: URL) => isTrustedUrl(url, prefixes) };
  };
  const refusedPrivate = (err: unknown) => err instanceof FetchRefusedError && err.reason === 'private-address';

  it('refuses a redirect from the trusted prefix to an untrusted loopback port', async () => {
    started.length = 0;
    await assert.rejects(safeFetch(`http://${r}/to-other`, options(`http://${r}/`)), refusedPrivate);
    assert.deepEqual(started, [`${r}/to-other`], 'the trusted hop was made, the redirect target never asked');
    assert.equal(otherHits, 0);
  });

  it('refuses a redirect to 169.254.169.254 before any connection to it', async () => {
    started.length = 0;
    await assert.rejects(safeFetch(`http://${r}/to-metadata`, options(`http://${r}/`)), refusedPrivate);
    assert.deepEqual(started, [`${r}/to-metadata`]);
  });

  it('follows a redirect that stays under the trusted prefix', async () => {
    const res = await safeFetch(`http://${r}/assets/a`, options(`http://${r}/assets`));
    assert.equal(res.body.toString(), 'trusted /assets/b');
    assert.equal(res.url, `http://${r}/assets/b`);
  });

  it('lends no trust through user info: a prefix without a slash is not a string match', async () => {
    started.length = 0;
    const port = new URL(s).port;
    await assert.rejects(safeFetch(`http://${r}@127.0.0.1:${port}/secret`, options(`http://${r}`)), refusedPrivate);
    assert.deepEqual(started, []);
    assert.equal(otherHits, 0);
  });

  it('does not trust a path next to the prefix', async () => {
    await assert.rejects(safeFetch(`http://${r}/assets-evil`, options(`http://${r}/assets`)), refusedPrivate);
  });
});
