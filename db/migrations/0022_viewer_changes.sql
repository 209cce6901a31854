-- The viewer plane keeps what it reads of these tables in memory, on every app instance
-- (lib/delivery/content.ts). A change that alters what viewers are served announces the entries it
-- touched on the channel castline_viewer, once its transaction commits, whichever process wrote it
-- (an instance's API, a job worker, a media node's report): "s:<stream id>", "p:<playback id>",
-- "x:<session id>", "a:<asset id>", space-separated. Writes that change nothing a viewer sees
-- (counters, progress, heartbeats) announce nothing.
CREATE FUNCTION castline_viewer_changed() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  r record;
  tags text;
BEGIN
  IF TG_OP = 'DELETE' THEN r := OLD; ELSE r := NEW; END IF;
  -- Branches, not one CASE: each reads fields only its table has.
  IF TG_TABLE_NAME = 'streams' THEN
    tags := 's:' || r.id || ' p:' || r.playback_id;
  ELSIF TG_TABLE_NAME = 'assets' THEN
    tags := 'a:' || r.id || ' p:' || r.playback_id || coalesce(' x:' || (r.source ->> 'sessionId'), '');
  ELSIF TG_TABLE_NAME = 'sessions' THEN
    tags := 's:' || r.parent_id || ' x:' || r.id;
  ELSIF TG_TABLE_NAME = 'recording_segments' THEN
    tags := 'x:' || r.session_id;
  ELSE
    tags := 'a:' || r.asset_id;
  END IF;
  IF TG_OP = 'UPDATE' AND TG_TABLE_NAME IN ('streams', 'assets') THEN
    -- A playback id given up (none is, today): what was cached under it must go too.
    IF OLD.playback_id <> NEW.playback_id THEN
      tags := tags || ' p:' || OLD.playback_id;
    END IF;
  END IF;
  PERFORM pg_notify('castline_viewer', tags);
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER streams_viewer_insert_delete AFTER INSERT OR DELETE ON streams FOR EACH ROW EXECUTE FUNCTION castline_viewer_changed();--> statement-breakpoint
CREATE TRIGGER streams_viewer_update AFTER UPDATE ON streams FOR EACH ROW
  WHEN ((OLD.playback_id, OLD.user_id, OLD.playback_policy, OLD.deleted_at) IS DISTINCT FROM (NEW.playback_id, NEW.user_id, NEW.playback_policy, NEW.deleted_at))
  EXECUTE FUNCTION castline_viewer_changed();--> statement-breakpoint
CREATE TRIGGER sessions_viewer_insert_delete AFTER INSERT OR DELETE ON sessions FOR EACH ROW EXECUTE FUNCTION castline_viewer_changed();--> statement-breakpoint
CREATE TRIGGER sessions_viewer_update AFTER UPDATE ON sessions FOR EACH ROW
  WHEN ((OLD.is_active, OLD.ready_at, OLD.epoch, OLD.record, OLD.recording_status, OLD.asset_id, OLD.playback_policy)
    IS DISTINCT FROM (NEW.is_active, NEW.ready_at, NEW.epoch, NEW.record, NEW.recording_status, NEW.asset_id, NEW.playback_policy))
  EXECUTE FUNCTION castline_viewer_changed();--> statement-breakpoint
CREATE TRIGGER assets_viewer_insert_delete AFTER INSERT OR DELETE ON assets FOR EACH ROW EXECUTE FUNCTION castline_viewer_changed();--> statement-breakpoint
CREATE TRIGGER assets_viewer_update AFTER UPDATE ON assets FOR EACH ROW
  WHEN ((OLD.playback_id, OLD.user_id, OLD.name, OLD.phase, OLD.size, OLD.video_spec, OLD.files, OLD.playback_policy, OLD.deleted_at, OLD.purged_at)
    IS DISTINCT FROM (NEW.playback_id, NEW.user_id, NEW.name, NEW.phase, NEW.size, NEW.video_spec, NEW.files, NEW.playback_policy, NEW.deleted_at, NEW.purged_at))
  EXECUTE FUNCTION castline_viewer_changed();--> statement-breakpoint
CREATE TRIGGER asset_renditions_viewer_insert_delete AFTER INSERT OR DELETE ON asset_renditions FOR EACH ROW EXECUTE FUNCTION castline_viewer_changed();--> statement-breakpoint
CREATE TRIGGER asset_renditions_viewer_update AFTER UPDATE ON asset_renditions FOR EACH ROW
  WHEN ((OLD.phase, OLD.width, OLD.height, OLD.bandwidth, OLD.average_bandwidth, OLD.codecs, OLD.mp4_key)
    IS DISTINCT FROM (NEW.phase, NEW.width, NEW.height, NEW.bandwidth, NEW.average_bandwidth, NEW.codecs, NEW.mp4_key))
  EXECUTE FUNCTION castline_viewer_changed();--> statement-breakpoint
CREATE TRIGGER asset_text_tracks_viewer AFTER INSERT OR UPDATE OR DELETE ON asset_text_tracks FOR EACH ROW EXECUTE FUNCTION castline_viewer_changed();--> statement-breakpoint
CREATE TRIGGER recording_segments_viewer AFTER INSERT OR DELETE ON recording_segments FOR EACH ROW EXECUTE FUNCTION castline_viewer_changed();
