-- When each API key was last used, to the minute: the dashboard and GET /v1/keys show it so a
-- person can tell a key in use from one safe to revoke. The API writes it at most once a minute
-- per key and process (api/auth/last-used.ts), never on the request's own path.
ALTER TABLE api_keys ADD COLUMN IF NOT EXISTS last_used_at timestamptz;
