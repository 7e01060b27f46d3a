import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { AppError } from '../../../lib/errors.ts';
import { parseTrustedPrefixes } from '../../../lib/net/trusted-prefixes.ts';
import { fetchAsset } from './fetch-asset.ts';

/** The reported SSRF: an image under TRUSTED_URL_PREFIXES redirecting to another loopback service. */
describe('fetchAsset with trusted prefixes and private addresses refused', () => {
  let trusted: Server;
  let other: Server;
  let r: string;
  let otherHits = 0;
  const trustedAsked: string[] = [];
  before(async () => {
    other = createServer((_req, res) => {
      otherHits++;
      res.writeHead(200, { 'content-type': 'image/png' }).end('secret');
    });
    await new Promise<void>((ok) => other.listen(0, '127.0.0.1', ok));
    const s = `http://127.0.0.1:${(other.address() as AddressInfo).port}`;
    trusted = createServer((req, res) => {
      trustedAsked.push(req.url ?? '');
      if (req.url === '/v1/assets/evil') res.writeHead(302, { location: `${s}/secret` }).end();
      else if (req.url === '/v1/assets/moved') res.writeHead(302, { location: '/v1/assets/ok' }).end();
      else res.writeHead(200, { 'content-type': 'image/png' }).end('png');
    });
    await new Promise<void>((ok) => trusted.listen(0, '127.0.0.1', ok));
    r = `http://127.0.0.1:${(trusted.address() as AddressInfo).port}`;
  });
  after(() => {
    trusted.close();
    other.close();
  });

  const policy = () => ({ allowPrivate: false, trustedPrefixes: parseTrustedPrefixes(`${r}/v1/assets/`) });
  const image = (type: string) => type.startsWith('image/');

  it('fetches a trusted asset, also through a redirect within the prefix', async () => {
    const asset = await fetchAsset(`${r}/v1/assets/moved`, 'scenes[0].elements[0].src', image, policy());
    assert.equal(asset.bytes.toString(), 'png');
  });

  it('refuses the redirect to an untrusted loopback port: ASSET_UNREACHABLE at the element path', async () => {
    trustedAsked.length = 0;
    await assert.rejects(
      fetchAsset(`${r}/v1/assets/evil`, 'scenes[0].elements[0].src', image, policy()),
      (err: unknown) =>
        err instanceof AppError &&
        err.code === 'ASSET_UNREACHABLE' &&
        err.path === 'scenes[0].elements[0].src' &&
        /private or loopback/.test(err.message),
    );
    assert.deepEqual(trustedAsked, ['/v1/assets/evil'], 'the trusted link itself was fetched');
    assert.equal(otherHits, 0);
  });
});
