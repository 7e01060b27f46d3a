-- Uploads may be subtitle files (SRT, WebVTT): a subtitles element's src takes an asset's url.
-- The rows of earlier kinds are untouched; an older API never writes the new kind.
ALTER TABLE assets DROP CONSTRAINT assets_kind_check;
ALTER TABLE assets ADD CONSTRAINT assets_kind_check CHECK (kind IN ('image', 'audio', 'video', 'subtitles'));
