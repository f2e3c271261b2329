-- A sign-in attempt reserved in one round trip (decisions 189 and 212): the rules of loginRateLimit
-- (rate-limit.ts) in the one statement's own transaction. It replaces 0016's sign_in_reserve, which
-- stays for the processes of before while a deploy rolls (it is no longer called).
-- Failures are limited per account and per (account, address) pair; a flooded address's turns are
-- reserved here but kept, and waited for, only by failures: a right password gives its turn back and
-- signs in at once, and an attempt whose turn would come too late ('busy') is still checked, so only a
-- wrong password is refused with the address's 429.
CREATE FUNCTION "sign_in_attempt"(account_key text, pair_key text, address_key text, slot_key text,
  per_account integer, per_address integer, "window" interval, slot interval, max_wait interval)
RETURNS TABLE (outcome text, ids integer[], wait_ms double precision) LANGUAGE plpgsql VOLATILE AS $$
DECLARE
  account_failures integer;
  pair_failures integer;
  address_failures integer;
  turn timestamptz;
  busy boolean := false;
  slot_ids integer[] := '{}';
BEGIN
  -- The reservation's commit does not wait for the disk (decision 187).
  PERFORM set_config('synchronous_commit', 'off', true);
  PERFORM pg_advisory_xact_lock(hashtextextended(account_key, 0));
  -- A statement of its own after the lock: a volatile function's statement takes a fresh snapshot, so
  -- it counts the attempts committed while the lock was awaited.
  SELECT count(*) FILTER (WHERE key = account_key), count(*) FILTER (WHERE key = pair_key),
      count(*) FILTER (WHERE key = address_key)
    INTO account_failures, pair_failures, address_failures
    FROM login_failures WHERE key IN (account_key, pair_key, address_key) AND at > now() - "window";
  IF account_failures >= per_account OR pair_failures >= per_account THEN
    RETURN QUERY SELECT 'account', NULL::integer[], 0::double precision;
    RETURN;
  END IF;
  turn := now();
  IF address_failures >= per_address THEN
    PERFORM pg_advisory_xact_lock(hashtextextended(slot_key, 0));
    -- The next free turn of this address: one slot after the last one reserved, or now.
    SELECT greatest(now(), max(at) + slot) INTO turn FROM login_failures WHERE key = slot_key;
    IF turn - now() > max_wait THEN
      busy := true;
      turn := now();
    ELSE
      WITH reserved AS (INSERT INTO login_failures (key, at) VALUES (slot_key, turn) RETURNING id)
      SELECT array_agg(id) INTO slot_ids FROM reserved;
    END IF;
  END IF;
  -- The pair's row is given back by key (a right password from the pair clears it), so it is not
  -- among the ids.
  INSERT INTO login_failures (key) VALUES (pair_key);
  RETURN QUERY
    WITH reserved AS (INSERT INTO login_failures (key) VALUES (account_key), (address_key) RETURNING id)
    SELECT CASE WHEN busy THEN 'busy' ELSE 'reserved' END, array_agg(id ORDER BY id) || slot_ids,
      extract(epoch FROM turn - now())::double precision * 1000
    FROM reserved;
END
$$;
