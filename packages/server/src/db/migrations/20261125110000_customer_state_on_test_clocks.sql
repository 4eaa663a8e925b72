-- A customer attached to a test clock lives by its time (decision 0029): the state the
-- Edge API reads (grants and usage counters) is taken at the clock's time, and a first
-- row (side 0) tells the caller which time that was.
CREATE OR REPLACE FUNCTION billow_customer_state(p_environment_id uuid, p_customer_id text, p_now timestamptz, p_feature text)
RETURNS TABLE (
  side integer,
  customer_pk uuid,
  customer_archived_at timestamptz,
  subscription_id uuid,
  start_date timestamptz,
  current_period_start timestamptz,
  current_period_end timestamptz,
  end_date timestamptz,
  feature_id uuid,
  identifier text,
  feature_name text,
  feature_type text,
  details jsonb,
  quantity jsonb,
  raw_meter jsonb,
  charge jsonb,
  c_sub_id uuid,
  c_depth integer,
  c_feature_id uuid,
  c_period_start timestamptz,
  c_value bigint,
  c_rollover bigint,
  c_alerts_sent jsonb
)
LANGUAGE plpgsql STABLE AS $$
DECLARE
  v_now timestamptz := p_now;
  v_clock timestamptz;
BEGIN
  SELECT t.frozen_time INTO v_clock
    FROM customers cu JOIN test_clocks t ON t.id = cu.test_clock_id
   WHERE cu.environment_id = p_environment_id AND cu.customer_id = p_customer_id;
  IF v_clock IS NOT NULL THEN
    v_now := v_clock;
    RETURN QUERY
      SELECT 0, NULL::uuid, NULL::timestamptz, NULL::uuid, NULL::timestamptz, v_clock, NULL::timestamptz,
             NULL::timestamptz, NULL::uuid, NULL::text, NULL::text, NULL::text, NULL::jsonb, NULL::jsonb, NULL::jsonb,
             NULL::jsonb, NULL::uuid, NULL::integer, NULL::uuid, NULL::timestamptz, NULL::bigint, NULL::bigint, NULL::jsonb;
  END IF;
  RETURN QUERY
    SELECT 1, g.*, NULL::uuid, NULL::integer, NULL::uuid, NULL::timestamptz, NULL::bigint, NULL::bigint, NULL::jsonb
      FROM billow_entitlement_grants(p_environment_id, p_customer_id, v_now, p_feature) AS g;
  RETURN QUERY
    SELECT 2, NULL::uuid, NULL::timestamptz, NULL::uuid, NULL::timestamptz, NULL::timestamptz, NULL::timestamptz,
           NULL::timestamptz, NULL::uuid, NULL::text, NULL::text, NULL::text, NULL::jsonb, NULL::jsonb, NULL::jsonb,
           NULL::jsonb, c.*
      FROM billow_customer_counters(p_environment_id, p_customer_id, v_now) AS c;
END
$$;
