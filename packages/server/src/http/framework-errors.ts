import http from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { sendError } from './errors.js';

/**
 * Errors Fastify's router raises before any route runs (a malformed escape in the
 * path, a path segment past the router's limit): answered in the one error format.
 */
export function frameworkErrors(error: FastifyError, _request: FastifyRequest, reply: FastifyReply): void {
  if (error.code === 'FST_ERR_MAX_PARAM_LENGTH') {
    void sendError(reply, 414, 'uri_too_long', 'A path segment of the URL is too long: ids and identifiers are at most 500 characters');
    return;
  }
  if (error.code === 'FST_ERR_BAD_URL') {
    void sendError(reply, 400, 'invalid_url', 'The URL is malformed: a percent sign must start an escape such as %20');
    return;
  }
  void sendError(reply, 400, 'invalid_request', 'The request could not be routed');
}

const CLIENT_ERRORS: Record<string, { status: number; code: string; detail: string }> = {
  ERR_HTTP_REQUEST_TIMEOUT: { status: 408, code: 'request_timeout', detail: 'The request took too long to arrive' },
  HPE_HEADER_OVERFLOW: { status: 431, code: 'headers_too_large', detail: 'The request headers (URL included) are too large' },
};

/**
 * Requests Node's HTTP parser refuses before Fastify sees them (oversized headers, a
 * request that never finished arriving, bytes that are not HTTP): the connection is
 * answered in the one error format, then closed.
 */
export function clientErrorHandler(error: NodeJS.ErrnoException, socket: Socket): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const known = CLIENT_ERRORS[error.code ?? ''] ?? { status: 400, code: 'bad_request', detail: 'The request is not valid HTTP' };
  if (socket.writable) {
    const body = JSON.stringify({ detail: known.detail, code: known.code });
    socket.write(
      `HTTP/1.1 ${known.status} ${http.STATUS_CODES[known.status]}\r\nContent-Type: application/json; charset=utf-8\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy(error);
}
