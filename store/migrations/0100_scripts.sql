-- Generated scripts (POST /v1/scripts). A row exists only for a generation that succeeded and
-- was charged: failures store nothing.
CREATE TABLE scripts (
  id              text PRIMARY KEY,
  account_id      text NOT NULL REFERENCES accounts (id),
  mode            text NOT NULL CHECK (mode IN ('live', 'test')),
  key_id          text NOT NULL,
  -- The request with defaults applied: what the script was generated and checked under.
  request         jsonb NOT NULL,
  title           text,
  description     text,
  scenes          jsonb NOT NULL,
  meta            jsonb NOT NULL,
  charged_credits bigint NOT NULL,
  created_at      timestamptz NOT NULL
);
CREATE INDEX scripts_list ON scripts (account_id, mode, created_at DESC, id DESC);
