import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ConfigError, EnvSchema, readEnv } from '../config.ts';
import { isTrustedUrl, parseTrustedPrefix, parseTrustedPrefixes } from './trusted-prefixes.ts';

const trusted = (prefix: string, url: string) => isTrustedUrl(new URL(url), parseTrustedPrefixes(prefix));

describe('isTrustedUrl', () => {
  const cases: [prefix: string, url: string, want: boolean][] = [
    // The API's own asset links, as pipeline.ts passes them.
    ['http://api.test/v1/assets/', 'http://api.test/v1/assets/ast_1/content?sig=x', true],
    // Default ports are the same port, written or not.
    ['http://h/', 'http://h:80/x', true],
    ['http://h:80/', 'http://h/x', true],
    ['https://h/', 'https://h:443/x', true],
    ['http://h/', 'http://h:8080/x', false],
    ['http://h/', 'https://h/x', false],
    ['https://h/', 'http://h:443/x', false],
    // Hosts compare normalised: case, and IPv4 written in decimal or hex.
    ['http://H.example/', 'http://h.EXAMPLE/x', true],
    ['http://127.0.0.1:8000/', 'http://2130706433:8000/x', true],
    ['http://127.0.0.1:8000/', 'http://0x7f.1:8000/x', true],
    ['http://h/', 'http://h.evil/x', false],
    // A path without a trailing slash trusts itself and whole segments below it.
    ['http://h/assets', 'http://h/assets', true],
    ['http://h/assets', 'http://h/assets/x', true],
    ['http://h/assets', 'http://h/assets?x=1', true],
    ['http://h/assets', 'http://h/assets-evil', false],
    ['http://h/assets', 'http://h/assetsx/y', false],
    ['http://h/assets/', 'http://h/assets/x', true],
    ['http://h/assets/', 'http://h/assets', false],
    ['http://h/assets/', 'http://h/assets-evil/x', false],
    // Dot segments, plain or percent-encoded, and backslashes cannot walk out of the prefix.
    ['http://h/assets/', 'http://h/assets/../secret', false],
    ['http://h/assets/', 'http://h/assets/%2e%2e/secret', false],
    ['http://h/assets/', 'http://h/assets/.%2E/secret', false],
    ['http://h/assets/', 'http://h/assets\\..\\secret', false],
    ['http://h/assets/', 'http://h/assets/x/../y', true],
    // An encoded slash may be decoded by the server into a walk out.
    ['http://h/assets/', 'http://h/assets/..%2fsecret', false],
    ['http://h/assets/', 'http://h/assets/..%5Csecret', false],
    // User info: the string-prefix trick, and credentials on a trusted host.
    ['http://127.0.0.1:8000', 'http://127.0.0.1:8000@127.0.0.1:9000/', false],
    ['http://127.0.0.1:8000/', 'http://127.0.0.1:8000@127.0.0.1:9000/', false],
    ['http://h/', 'http://user:pw@h/x', false],
    ['http://h/', 'http://user@h/x', false],
    // Several prefixes: any one will do.
    ['http://a/x/,http://b/y/', 'http://b/y/z', true],
    ['http://a/x/,http://b/y/', 'http://b/x/z', false],
  ];
  for (const [prefix, url, want] of cases) {
    it(`${prefix} ${want ? 'trusts' : 'does not trust'} ${url}`, () => assert.equal(trusted(prefix, url), want));
  }

  it('trusts nothing without prefixes', () => {
    assert.equal(isTrustedUrl(new URL('http://h/'), []), false);
    assert.deepEqual(parseTrustedPrefixes(undefined), []);
  });
});

describe('parseTrustedPrefix', () => {
  it('normalises scheme, host, port and path once', () => {
    assert.deepEqual(parseTrustedPrefix('HTTP://Api.Test:80/v1/./assets/'), {
      protocol: 'http:',
      hostname: 'api.test',
      port: '80',
      path: '/v1/assets/',
    });
  });

  for (const [raw, why] of [
    ['not a url', /not an absolute URL/],
    ['ftp://h/', /not an http\(s\) URL/],
    ['http://u:p@h/', /user info/],
    ['http://h/a?x=1', /query or fragment/],
    ['http://h/a#x', /query or fragment/],
  ] as const) {
    it(`refuses ${raw}`, () => assert.throws(() => parseTrustedPrefix(raw), why));
  }

  it('a malformed TRUSTED_URL_PREFIXES is a config error naming the variable and the problem', () => {
    assert.throws(
      () => readEnv(EnvSchema, { TRUSTED_URL_PREFIXES: 'http://ok/,http://u@h/' }),
      (err: unknown) =>
        err instanceof ConfigError &&
        err.message.includes('TRUSTED_URL_PREFIXES="http://ok/,http://u@h/": "http://u@h/" has user info'),
    );
    assert.throws(
      () => readEnv(EnvSchema, { TRUSTED_URL_PREFIXES: 'http://[::1/' }),
      /TRUSTED_URL_PREFIXES="http:\/\/\[::1\/": "http:\/\/\[::1\/" is not an absolute URL/,
    );
    const { values } = readEnv(EnvSchema, { TRUSTED_URL_PREFIXES: 'http://127.0.0.1:8080/v1/assets/' });
    assert.equal(values.TRUSTED_URL_PREFIXES, 'http://127.0.0.1:8080/v1/assets/');
  });
});
