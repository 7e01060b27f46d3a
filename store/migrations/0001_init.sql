-- Accounts, API keys, renders, templates, idempotency records and the credit ledger.
CREATE TABLE accounts (
  id             text PRIMARY KEY,
  name           text NOT NULL,
  plan           text NOT NULL CHECK (plan IN ('trial', 'starter', 'pro', 'studio')),
  credit_balance bigint NOT NULL DEFAULT 0,
  created_at     timestamptz NOT NULL DEFAULT now(),
  updated_at     timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE api_keys (
  id          text PRIMARY KEY,
  account_id  text NOT NULL REFERENCES accounts (id),
  mode        text NOT NULL CHECK (mode IN ('live', 'test')),
  -- SHA-256 of the whole secret, hex; the secret itself is never stored.
  key_hash    text NOT NULL UNIQUE,
  prefix      text NOT NULL,
  created_at  timestamptz NOT NULL DEFAULT now(),
  revoked_at  timestamptz,
  replaced_by text
);
CREATE INDEX api_keys_account ON api_keys (account_id);

CREATE TABLE templates (
  id         text PRIMARY KEY,
  account_id text NOT NULL REFERENCES accounts (id),
  mode       text NOT NULL CHECK (mode IN ('live', 'test')),
  name       text NOT NULL,
  body       jsonb NOT NULL,
  variables  jsonb NOT NULL,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL
);
CREATE INDEX templates_list ON templates (account_id, mode, created_at DESC, id DESC);

CREATE TABLE renders (
  id               text PRIMARY KEY,
  account_id       text NOT NULL REFERENCES accounts (id),
  mode             text NOT NULL CHECK (mode IN ('live', 'test')),
  key_id           text NOT NULL,
  status           text NOT NULL CHECK (status IN ('queued', 'preparing', 'rendering', 'done', 'failed')),
  progress         integer NOT NULL DEFAULT 0,
  draft            boolean NOT NULL,
  watermark        boolean NOT NULL,
  movie            jsonb NOT NULL,
  width            integer NOT NULL,
  height           integer NOT NULL,
  fps              integer NOT NULL,
  estimated_sec    double precision NOT NULL,
  -- Credits held while the render is active; settlement replaces them with the real charge.
  reserved_credits bigint NOT NULL DEFAULT 0,
  charged_credits  bigint,
  output_url       text,
  expires_at       timestamptz,
  error            jsonb,
  duration_sec     double precision,
  metered_minutes  double precision,
  -- No foreign key: deleting a template leaves its renders as they are.
  template_id      text,
  webhook_url      text,
  created_at       timestamptz NOT NULL,
  updated_at       timestamptz NOT NULL
);
CREATE INDEX renders_list ON renders (account_id, mode, created_at DESC, id DESC);
CREATE INDEX renders_active ON renders (account_id) WHERE status IN ('queued', 'preparing', 'rendering');
CREATE INDEX renders_queue ON renders (created_at) WHERE status = 'queued';

CREATE TABLE idempotency_keys (
  account_id    text NOT NULL REFERENCES accounts (id),
  key           text NOT NULL,
  request_hash  text NOT NULL,
  resource_type text NOT NULL,
  resource_id   text NOT NULL,
  created_at    timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (account_id, key)
);

CREATE TABLE credit_ledger (
  id         bigserial PRIMARY KEY,
  account_id text NOT NULL REFERENCES accounts (id),
  delta      bigint NOT NULL,
  reason     text NOT NULL,
  ref_id     text,
  created_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX credit_ledger_account ON credit_ledger (account_id, id);
