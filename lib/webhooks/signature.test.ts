import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Webhook } from 'standardwebhooks';
import { newWebhookSecret, signWebhook, verifyWebhook } from './signature.ts';

describe('Standard Webhooks signatures', () => {
  const body = JSON.stringify({ id: 'evt_1', type: 'render.completed', data: { id: 'rnd_1' } });
  const now = Math.floor(Date.now() / 1000);

  it('verify with the reference implementation (standardwebhooks package)', () => {
    const secret = newWebhookSecret();
    const headers = signWebhook(secret, 'msg_1', now, body);
    const payload = new Webhook(secret).verify(body, { ...headers });
    assert.deepEqual(payload, JSON.parse(body));
  });

  it('match the reference implementation byte for byte', () => {
    const secret = newWebhookSecret();
    const reference = new Webhook(secret).sign('msg_2', new Date(now * 1000), body);
    assert.equal(signWebhook(secret, 'msg_2', now, body)['webhook-signature'], reference);
  });

  it('are rejected when the body, the secret or the timestamp is off', () => {
    const secret = newWebhookSecret();
    const headers = signWebhook(secret, 'msg_3', now, body);
    assert.equal(verifyWebhook(secret, headers, body, now), true);
    assert.equal(verifyWebhook(secret, headers, `${body} `, now), false);
    assert.equal(verifyWebhook(newWebhookSecret(), headers, body, now), false);
    assert.equal(verifyWebhook(secret, headers, body, now + 301), false);
    assert.throws(() => new Webhook(newWebhookSecret()).verify(body, { ...headers }));
  });

  it('accept any one of several signatures (rotation)', () => {
    const oldSecret = newWebhookSecret();
    const newSecret = newWebhookSecret();
    const a = signWebhook(oldSecret, 'msg_4', now, body);
    const b = signWebhook(newSecret, 'msg_4', now, body);
    const both = { ...a, 'webhook-signature': `${a['webhook-signature']} ${b['webhook-signature']}` };
    assert.equal(verifyWebhook(newSecret, both, body, now), true);
    assert.equal(verifyWebhook(oldSecret, both, body, now), true);
  });
});
