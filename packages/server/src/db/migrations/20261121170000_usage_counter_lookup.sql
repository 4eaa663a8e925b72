-- billow_customer_counters looks each subscription's counters up through the counters' primary
-- key (subscription_id first). The planner cannot know that the lineage of one customer is a
-- handful of rows: it hash-joined it with a scan of the whole usage_counters table, on every
-- call. OFFSET 0 keeps the lateral subquery from being flattened into that join.
CREATE OR REPLACE FUNCTION billow_customer_counters(p_environment_id uuid, p_customer_id text, p_now timestamptz)
RETURNS TABLE (
  sub_id uuid,
  depth integer,
  feature_id uuid,
  period_start timestamptz,
  value bigint,
  rollover bigint,
  alerts_sent jsonb
)
LANGUAGE plpgsql STABLE AS $$
#variable_conflict use_column
BEGIN
  RETURN QUERY
    WITH RECURSIVE lineage (sub_id, ancestor_id, previous_id, depth) AS (
      SELECT s.id, s.id, s.previous_subscription_id, 0
      FROM customers c JOIN subscriptions s ON s.customer_id = c.id
      WHERE c.environment_id = p_environment_id AND c.customer_id = p_customer_id
        AND s.status IN ('active', 'trialing', 'past_due', 'canceled')
      UNION ALL
      SELECT l.sub_id, s.id, s.previous_subscription_id, l.depth + 1
      FROM lineage l JOIN subscriptions s ON s.id = l.previous_id
      WHERE l.depth < 100
    )
    SELECT l.sub_id, l.depth, u.feature_id, u.period_start, u.value, u.rollover, u.alerts_sent
    FROM lineage l
    CROSS JOIN LATERAL (
      SELECT * FROM usage_counters u
      WHERE u.subscription_id = l.ancestor_id
        AND (u.period_end IS NULL OR u.period_end > p_now - 2 * (u.period_end - u.period_start))
      OFFSET 0
    ) u
    ORDER BY l.depth;
END
$$;

-- Both reads in one call, as entitlement checks and usage reports make them: one round trip, and
-- PostgreSQL keeps the plan of the union for the session too. Grant rows (side 1) come first, in
-- their function's order, then counter rows (side 2) in theirs; a row carries only its side's
-- columns.
CREATE FUNCTION billow_customer_state(p_environment_id uuid, p_customer_id text, p_now timestamptz, p_feature text)
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
BEGIN
  RETURN QUERY
    SELECT 1, g.*, NULL::uuid, NULL::integer, NULL::uuid, NULL::timestamptz, NULL::bigint, NULL::bigint, NULL::jsonb
      FROM billow_entitlement_grants(p_environment_id, p_customer_id, p_now, p_feature) AS g;
  RETURN QUERY
    SELECT 2, NULL::uuid, NULL::timestamptz, NULL::uuid, NULL::timestamptz, NULL::timestamptz, NULL::timestamptz,
           NULL::timestamptz, NULL::uuid, NULL::text, NULL::text, NULL::text, NULL::jsonb, NULL::jsonb, NULL::jsonb,
           NULL::jsonb, c.*
      FROM billow_customer_counters(p_environment_id, p_customer_id, p_now) AS c;
END
$$;
