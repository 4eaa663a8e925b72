-- Decision 0053. A usage counter stays within ±(2^53 − 1), the integers every JSON client holds
-- exactly. The service refuses a report that would cross it (400 usage_counter_limit) by
-- catching this check, so concurrent writers cannot cross it between a read and a write.
-- NOT VALID: rows written before are not checked (none can be near the bound in practice);
-- every insert and update from now on is.
ALTER TABLE usage_counters
  ADD CONSTRAINT usage_counters_value_bound CHECK (value BETWEEN -9007199254740991 AND 9007199254740991) NOT VALID;
