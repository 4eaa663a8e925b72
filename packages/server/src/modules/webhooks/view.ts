import type { WebhookEndpoint } from '@billow/contract';
import type { EndpointRow, LogRow } from './repo.js';

export function endpointView(row: EndpointRow): WebhookEndpoint {
  return {
    id: row.id,
    object: 'webhook_endpoint',
    url: row.url,
    description: row.description,
    eventTypes: row.event_types ?? ['*'],
    enabled: row.enabled,
    disabledReason: row.disabled_reason,
    standardSignature: row.standard_signature,
    previousSecretExpiresAt: row.previous_secret_expires_at?.toISOString() ?? null,
    createdOn: row.created_at.toISOString(),
    modifiedOn: row.modified_at.toISOString(),
  };
}

export function logView(row: LogRow) {
  return {
    id: row.id,
    eventId: row.event_id,
    endpoint: row.endpoint_id,
    eventType: row.event_type,
    statusCode: row.status_code,
    isSuccess: row.is_success,
    retryCount: row.retry_count,
    lastAttempt: row.attempted_at.toISOString(),
    createdOn: row.event_created_at.toISOString(),
    payload: row.payload,
  };
}

export function logDetailView(row: LogRow) {
  return {
    ...logView(row),
    url: row.url,
    requestHeaders: row.request_headers,
    requestBody: JSON.stringify(row.payload),
    error: row.error,
    responseExcerpt: row.response_excerpt,
    durationMs: row.duration_ms,
  };
}
