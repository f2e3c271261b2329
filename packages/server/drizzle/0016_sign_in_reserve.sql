-- A sign-in attempt reserved in one round trip (decision 189): the rules of loginRateLimit (rate-limit.ts),
-- run by the database between the lock and the insert, in the one statement's own transaction.
CREATE FUNCTION "sign_in_reserve"(account_key text, address_key text, slot_key text, per_account integer,
  per_address integer, "window" interval, slot interval, max_wait interval)
RETURNS TABLE (outcome text, ids integer[], wait_ms double precision) LANGUAGE plpgsql VOLATILE AS $$
DECLARE
  account_failures integer;
  address_failures integer;
  turn timestamptz;
BEGIN
  -- The reservation's commit does not wait for the disk (decision 187).
  PERFORM set_config('synchronous_commit', 'off', true);
  PERFORM pg_advisory_xact_lock(hashtextextended(account_key, 0));
  -- A statement of its own after the lock: a volatile function's statement takes a fresh snapshot, so
  -- it counts the attempts committed while the lock was awaited.
  SELECT count(*) FILTER (WHERE key = account_key), count(*) FILTER (WHERE key = address_key)
    INTO account_failures, address_failures
    FROM login_failures WHERE key IN (account_key, address_key) AND at > now() - "window";
  IF account_failures >= per_account THEN
    RETURN QUERY SELECT 'account', NULL::integer[], 0::double precision;
    RETURN;
  END IF;
  IF address_failures >= per_address THEN
    PERFORM pg_advisory_xact_lock(hashtextextended(slot_key, 0));
    -- The next free turn of this address: one slot after the last one reserved, or now.
    SELECT greatest(now(), max(at) + slot) INTO turn FROM login_failures WHERE key = slot_key;
    IF turn - now() > max_wait THEN
      RETURN QUERY SELECT 'busy', NULL::integer[], 0::double precision;
      RETURN;
    END IF;
    INSERT INTO login_failures (key, at) VALUES (slot_key, turn);
  ELSE
    turn := now();
  END IF;
  RETURN QUERY
    WITH reserved AS (INSERT INTO login_failures (key) VALUES (account_key), (address_key) RETURNING id)
    SELECT 'reserved', array_agg(id ORDER BY id), extract(epoch FROM turn - now())::double precision * 1000
    FROM reserved;
END
$$;
