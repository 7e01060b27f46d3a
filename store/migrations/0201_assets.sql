-- Uploaded media (images, audio, video) referenced from movie documents by their signed url.
CREATE TABLE assets (
  id           text PRIMARY KEY,
  account_id   text NOT NULL REFERENCES accounts (id),
  mode         text NOT NULL CHECK (mode IN ('live', 'test')),
  kind         text NOT NULL CHECK (kind IN ('image', 'audio', 'video')),
  content_type text NOT NULL,
  size         bigint NOT NULL,
  name         text,
  object_key   text NOT NULL,
  created_at   timestamptz NOT NULL
);
CREATE INDEX assets_list ON assets (account_id, mode, created_at DESC, id DESC);
