-- Expensive calls in flight (issue 46, point 14; http/expensive-calls.ts, decision 240). Unlogged: a
-- lease is worth nothing after a database crash (its calls died with their connections), so its
-- writes skip the write-ahead log.
CREATE UNLOGGED TABLE "expensive_call_leases" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "expensive_call_leases_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"key" varchar(100) NOT NULL,
	"expires_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE INDEX "expensive_call_leases_key_expires_at_idx" ON "expensive_call_leases" USING btree ("key","expires_at");--> statement-breakpoint
-- Takes a lease under each key in turn, while the key holds fewer live leases than its cap, in one
-- round trip (the statement's own transaction). Under a lock per key, so simultaneous calls of every
-- server process count each other's leases. Stops at the first key at its cap: answers the leases
-- taken before it (the caller keeps or gives them back) and that key.
CREATE FUNCTION "expensive_call_take"(keys text[], caps integer[], lease interval)
RETURNS TABLE (ids bigint[], full_key text) LANGUAGE plpgsql VOLATILE AS $$
DECLARE
  taken bigint[] := '{}';
  held integer;
  new_id bigint;
BEGIN
  -- A lease's commit does not wait for the disk (decision 187).
  PERFORM set_config('synchronous_commit', 'off', true);
  FOR i IN 1 .. coalesce(array_length(keys, 1), 0) LOOP
    PERFORM pg_advisory_xact_lock(hashtextextended('expensive call ' || keys[i], 0));
    -- Statements of their own after the lock: each takes a fresh snapshot, so they see the leases
    -- committed while the lock was awaited. Leases past their time (a process that died) go first.
    DELETE FROM expensive_call_leases WHERE key = keys[i] AND expires_at <= now();
    SELECT count(*) INTO held FROM expensive_call_leases WHERE key = keys[i];
    IF held >= caps[i] THEN
      RETURN QUERY SELECT taken, keys[i];
      RETURN;
    END IF;
    INSERT INTO expensive_call_leases (key, expires_at) VALUES (keys[i], now() + lease) RETURNING id INTO new_id;
    taken := taken || new_id;
  END LOOP;
  RETURN QUERY SELECT taken, NULL::text;
END
$$;
