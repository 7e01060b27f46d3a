import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ConfigError, EnvSchema, envBool, readEnv } from './config.ts';

describe('readEnv', () => {
  it('fills defaults and reports where each value came from', () => {
    const { values, sources } = readEnv(EnvSchema, { PORT: '9090' });
    assert.equal(values.PORT, '9090');
    assert.equal(values.DATA_DIR, './data');
    assert.equal(sources.PORT, 'env');
    assert.equal(sources.DATA_DIR, 'default');
    assert.equal(values.DATABASE_URL, undefined);
  });

  it('treats an empty variable as unset', () => {
    const { values, sources } = readEnv(EnvSchema, { PORT: '' });
    assert.equal(values.PORT, '8080');
    assert.equal(sources.PORT, 'default');
  });

  it('names every bad variable and its value', () => {
    assert.throws(
      () => readEnv(EnvSchema, { PORT: 'eighty', DATABASE_URL: 'mysql://x', ALLOW_PRIVATE_URLS: 'yes' }),
      (err: unknown) => {
        assert.ok(err instanceof ConfigError);
        assert.match(err.message, /PORT="eighty"/);
        assert.match(err.message, /DATABASE_URL="mysql:\/\/x"/);
        assert.match(err.message, /ALLOW_PRIVATE_URLS="yes"/);
        return true;
      },
    );
  });

  it('ignores variables it does not know', () => {
    const { values } = readEnv(EnvSchema, { PATH: '/usr/bin', HOME: '/root' });
    assert.equal((values as Record<string, unknown>).PATH, undefined);
  });

  it('reads booleans', () => {
    assert.deepEqual(['true', '1', 'false', '0', undefined].map(envBool), [true, true, false, false, false]);
  });
});
