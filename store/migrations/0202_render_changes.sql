-- Every change to a render row announces its id on the framewright_renders channel, whoever made
-- it (an API replica, the operator, a manual fix), so API replicas can cache render reads and
-- drop an entry the moment the row changes (see store/change-feed.ts).
CREATE OR REPLACE FUNCTION framewright_render_changed() RETURNS trigger AS $$
BEGIN
  PERFORM pg_notify('framewright_renders', OLD.id);
  RETURN NULL;
END;
$$ LANGUAGE plpgsql;

DROP TRIGGER IF EXISTS renders_changed ON renders;
CREATE TRIGGER renders_changed AFTER UPDATE OR DELETE ON renders
  FOR EACH ROW EXECUTE FUNCTION framewright_render_changed();
