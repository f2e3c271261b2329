-- A uuid names one record for ever (issue 46, finding 13): a create whose resource and uuid already have
-- history (a deleted record's) is refused, so a record made with a deleted one's uuid never opens its
-- history. In the write's own transaction, at its audit row: no statement more for a create.
CREATE FUNCTION audit_events_uuid_once() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.action = 'create' AND EXISTS (
    SELECT 1 FROM audit_events e WHERE e.resource = NEW.resource AND e.uuid = NEW.uuid
  ) THEN
    RAISE EXCEPTION 'uuid % of % was used before', NEW.uuid, NEW.resource
      USING ERRCODE = 'unique_violation', TABLE = 'audit_events', CONSTRAINT = 'audit_events_uuid_unique';
  END IF;
  RETURN NEW;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER audit_events_uuid_once BEFORE INSERT ON audit_events
  FOR EACH ROW EXECUTE FUNCTION audit_events_uuid_once();
